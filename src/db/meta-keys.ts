/**
 * The day's visitor salt in `meta` (core/share/visitor-salt.ts): read and replaced by the view
 * counter, and left behind by backups and `database migrate`, so no copy can test an address against a day's
 * visitor keys.
 */
export const VISITOR_SALT_KEY = 'visitor_salt'
