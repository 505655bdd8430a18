/**
 * The limits of the instance's branding (docs/operations.md, Branding), for the server and the dashboard alike.
 * Bundled into the browser: constants only.
 */
export const BRAND_LIMITS = {
  /** The longest instance name, in code points after NFC. */
  name: 60,
  /** The largest logo accepted (before it is re-encoded). */
  logoBytes: 1024 * 1024,
  /** A logo is scaled down (never up) to fit this box, three times the height it is shown at. */
  logoWidth: 720,
  logoHeight: 144,
  /** Larger pictures are refused before they are decoded: a small file can hold a huge, highly compressed image. */
  logoPixels: 40_000_000,
} as const

/** The logo formats accepted, by media type: raster images browsers show everywhere. SVG is not one (docs). */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const

/** The fields of the branding; each comes from the Admin page, or else from its setting (PDFSHARE_BRAND_*). */
export const BRAND_FIELDS = ['name', 'accent', 'hidePdfshare', 'logo'] as const
export type BrandField = (typeof BRAND_FIELDS)[number]
