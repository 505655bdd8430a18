import { readFile } from 'node:fs/promises'
import { and, eq } from 'drizzle-orm'
import { versionedCache } from '../../db/versioned-cache'
import { BRAND_FIELDS, type BrandField } from '../../shared/branding-shapes'
import type { AppContext } from '../context'
import { type PreparedLogo, prepareLogo } from './logo-image'
import { type BrandStyle, brandStyleOf } from './stylesheet'

/** The one row of the `branding` table. */
export const BRANDING_ROW = 'instance'

export type BrandLogo = { hash: string; width: number; height: number; bytes: number }

/**
 * The instance's branding as pages show it: each field the Admin page's, else its setting's (PDFSHARE_BRAND_*).
 * `fromSettings` names the fields the Admin page has not set (their value is the setting's, which may be none).
 */
export type Branding = {
  name: string | null
  accent: string | null
  hidePdfshare: boolean
  logo: BrandLogo | null
  /** /branding.css, when there is an accent. */
  style: BrandStyle | null
  fromSettings: BrandField[]
  /** When the Admin page last changed it; null: never. */
  updatedAt: number | null
}

/**
 * Where a module gets the branding: `refresh` before a page is drawn, `current` while drawing it (the branding is
 * the same for every request, so the newest one read is right for all), `logo` for the logo's bytes.
 */
export type BrandingSource = {
  refresh: () => Promise<Branding>
  /** Reads the row now, past any cache: what an admin's change made of it. */
  read: () => Promise<Branding>
  current: () => Branding
  logo: (hash: string) => Promise<Buffer | undefined>
}

/**
 * On a database several instances share (PostgreSQL), the row is read again at most this often, so a change an
 * admin makes on one instance shows on every other within a second, without a query per request.
 */
export const SHARED_REFRESH_MS = 1000

const ROW = `SELECT "name", "accent", "hide_pdfshare", "logo_hash", "logo_width", "logo_height", length("logo"), "updated_at"
  FROM "branding" WHERE "id" = '${BRANDING_ROW}'`

/**
 * The branding of an install. On the embedded database it is kept in a versioned cache (db/versioned-cache.ts):
 * exact, any commit of the Admin page's change empties it. On a shared one it is read again after
 * SHARED_REFRESH_MS. The setting's logo file is decoded and re-encoded once, when first needed.
 */
export function brandingSource(ctx: AppContext): BrandingSource {
  const { config } = ctx
  const cache = versionedCache<Branding>(ctx.db.hot, { size: 1 })
  let settingLogo: Promise<PreparedLogo | null> | undefined
  const logoOfSetting = () => {
    const path = config.brandLogo
    settingLogo ??= path
      ? readFile(path)
          .then(prepareLogo)
          .catch((error: unknown) => {
            ctx.log.error(`the logo of PDFSHARE_BRAND_LOGO (${path}) cannot be shown`, error)
            return null
          })
      : Promise.resolve(null)
    return settingLogo
  }
  const styles = new Map<string, BrandStyle>()
  const styleOf = (accent: string) => {
    let style = styles.get(accent)
    if (!style) {
      if (styles.size > 16) styles.clear()
      style = brandStyleOf(accent)
      styles.set(accent, style)
    }
    return style
  }

  const load = async (): Promise<Branding> => {
    const row = await ctx.db.hot.get(ROW, [])
    const [name, accent, hide, logoHash, logoWidth, logoHeight, logoBytes, updatedAt] = row ?? []
    const fromSettings: BrandField[] = []
    const pick = <T>(field: BrandField, saved: T | null | undefined, setting: T): T => {
      if (saved !== null && saved !== undefined) return saved
      fromSettings.push(field)
      return setting
    }
    const ownLogo =
      typeof logoHash === 'string'
        ? { hash: logoHash, width: Number(logoWidth), height: Number(logoHeight), bytes: Number(logoBytes) }
        : undefined
    const prepared = ownLogo ? null : await logoOfSetting()
    const settingLogoOf = prepared && {
      hash: prepared.hash,
      width: prepared.width,
      height: prepared.height,
      bytes: prepared.png.byteLength,
    }
    const effectiveAccent = pick('accent', accent as string | null, config.brandAccent ?? null)
    return {
      name: pick('name', name as string | null, config.brandName ?? null) || null,
      accent: effectiveAccent,
      hidePdfshare: pick('hidePdfshare', hide === null || hide === undefined ? null : Boolean(hide), config.brandHidePdfshare),
      logo: pick('logo', ownLogo, settingLogoOf ?? null),
      style: effectiveAccent ? styleOf(effectiveAccent) : null,
      fromSettings: BRAND_FIELDS.filter((field) => fromSettings.includes(field)),
      updatedAt: updatedAt === undefined || updatedAt === null ? null : Number(updatedAt),
    }
  }

  let latest: Branding = {
    name: config.brandName ?? null,
    accent: config.brandAccent ?? null,
    hidePdfshare: config.brandHidePdfshare,
    logo: null,
    style: config.brandAccent ? styleOf(config.brandAccent) : null,
    fromSettings: ['name', 'accent', 'hidePdfshare', 'logo'],
    updatedAt: null,
  }
  let readAt = Number.NEGATIVE_INFINITY
  let reading: Promise<Branding> | undefined
  const readShared = () => {
    reading ??= load()
      .then((branding) => {
        latest = branding
        readAt = ctx.now()
        return branding
      })
      .finally(() => {
        reading = undefined
      })
    return reading
  }

  return {
    async refresh() {
      if (ctx.db.shared) return ctx.now() - readAt < SHARED_REFRESH_MS ? latest : readShared()
      latest = (await cache(BRANDING_ROW, load))!
      return latest
    },
    current: () => latest,
    read: load,
    async logo(hash) {
      const fromSetting = await logoOfSetting()
      if (fromSetting?.hash === hash) return fromSetting.png
      const { branding } = ctx.db.tables
      const [row] = await ctx.db.orm
        .select({ logo: branding.logo })
        .from(branding)
        .where(and(eq(branding.id, BRANDING_ROW), eq(branding.logoHash, hash)))
      return row?.logo ?? undefined
    },
  }
}
