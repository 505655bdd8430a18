import type { Kit } from './kit'

/** Branding (core/branding): what an admin set on the Admin page. */
export function brandingTables(k: Kit) {
  /**
   * The branding an admin set on the dashboard's Admin page (docs/operations.md, Branding): one row, id `instance`.
   * A NULL field is the setting's (PDFSHARE_BRAND_*); a name of "" is no name even where the setting names one. The
   * logo is kept here, re-encoded as a PNG of at most 720×144 (core/branding/logo-image.ts), so every instance of a
   * shared install serves the same one, and backups and `database migrate` carry it.
   */
  const branding = k.table('branding', {
    id: k.text('id').primaryKey(),
    name: k.text('name'),
    /** `#rrggbb`. */
    accent: k.text('accent'),
    hidePdfshare: k.boolean('hide_pdfshare'),
    /** The PNG; NULL with the fields below: the setting's logo, if any. */
    logo: k.bytes('logo'),
    /** The first 16 hex digits of the PNG's SHA-256: its URL, so a new logo is a new address. */
    logoHash: k.text('logo_hash'),
    logoWidth: k.integer('logo_width'),
    logoHeight: k.integer('logo_height'),
    updatedAt: k.millis('updated_at').notNull(),
  })

  return { branding }
}
