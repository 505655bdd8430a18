/**
 * Everything pdfshare creates (database, WAL, PDFs, secret, backups) is for its own user only. The umask a
 * process inherits is usually 022, which makes new files world-readable: the database holds password
 * hashes. Imported first by main.ts, so it is set before any other module is evaluated or opens a file.
 */
process.umask(0o077)
