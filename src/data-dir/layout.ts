import { join } from 'node:path'

/** Everything pdfshare keeps lives under one data dir: back it up, move it or delete it as one folder. */
export type DataDirLayout = {
  root: string
  /** The PDFs, by blob key (a local blob store: storage/local-blob-store.ts). */
  blobs: string
  /** Uploads in flight; anything here at start-up is a leftover of a crash or kill. */
  tmp: string
  /** Rendered share-page previews (cache; safe to delete). */
  previews: string
  /** Local copies of the PDFs of an S3 bucket, a folder per running instance (cache; safe to delete). */
  copies: string
  /** The generated HS256 secret when PDFSHARE_JWT_SECRET is not set (mode 0600). */
  secretFile: string
  /** The id this data dir shares with its database (see pairing.ts). */
  idFile: string
  /** Blobs no row pointed at, moved aside by the start-up sweep instead of being deleted. */
  orphans: string
}

export function layoutOf(root: string): DataDirLayout {
  return {
    root,
    blobs: join(root, 'blobs'),
    tmp: join(root, 'tmp'),
    previews: join(root, 'previews'),
    copies: join(root, 'copies'),
    secretFile: join(root, 'jwt-secret'),
    idFile: join(root, 'data-dir-id'),
    orphans: join(root, 'orphans'),
  }
}
