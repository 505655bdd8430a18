import { BRANDING_ROW } from './read-branding'
import type { AppContext } from '../context'

/** Fields of the branding row to write; omitted ones stay, null goes back to the setting. */
export type BrandingFields = {
  name?: string | null
  accent?: string | null
  hidePdfshare?: boolean | null
  logo?: { png: Buffer; hash: string; width: number; height: number } | null
}

/**
 * Writes the Admin page's branding: one row, made by the first change (an upsert, so two admins saving at once
 * both land, the later one's fields last). Every instance sees it at its next read (core/branding/read-branding.ts).
 */
export async function saveBranding(ctx: AppContext, fields: BrandingFields): Promise<void> {
  const { branding } = ctx.db.tables
  const { logo, ...plain } = fields
  const logoColumns =
    logo === undefined
      ? {}
      : { logo: logo?.png ?? null, logoHash: logo?.hash ?? null, logoWidth: logo?.width ?? null, logoHeight: logo?.height ?? null }
  const set = { ...plain, ...logoColumns, updatedAt: ctx.now() }
  await ctx.db.orm
    .insert(branding)
    .values({ id: BRANDING_ROW, ...set })
    .onConflictDoUpdate({ target: branding.id, set })
}
