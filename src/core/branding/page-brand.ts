import { brandPaths } from './paths'
import type { Branding } from './read-branding'

/** What a page shows of the branding (share pages, gate pages, the dashboard's page). */
export type PageBrand = {
  name: string | null
  logo: { url: string; width: number; height: number } | null
  /** /branding.css at its version, after the page's own stylesheet; null: no accent. */
  stylesheet: string | null
  /** Link previews' site name (og:site_name): the instance name, else pdfshare, unless pdfshare is hidden. */
  siteName: string | null
  /** The page's icon: the logo, else pdfshare's, none when pdfshare is hidden. */
  icon: { href: string; type: string } | null
}

/** The page's view of the branding; `pdfshareIcon` is the built favicon's address. */
export function pageBrandOf(branding: Branding, basePath: string, pdfshareIcon: string): PageBrand {
  const paths = brandPaths(basePath)
  const logo = branding.logo && { url: paths.logo(branding.logo.hash), width: branding.logo.width, height: branding.logo.height }
  const hidden = branding.hidePdfshare
  return {
    name: branding.name,
    logo,
    stylesheet: branding.style && paths.stylesheet(branding.style.version),
    siteName: branding.name ?? (hidden ? null : 'pdfshare'),
    icon: logo ? { href: logo.url, type: 'image/png' } : hidden ? null : { href: pdfshareIcon, type: 'image/svg+xml' },
  }
}

/** The same, cached per branding read (a cached read is the same object, so its view is made once). */
export function pageBrands(basePath: string, pdfshareIcon: string): (branding: Branding) => PageBrand {
  const made = new WeakMap<Branding, PageBrand>()
  return (branding) => {
    let brand = made.get(branding)
    if (!brand) {
      brand = pageBrandOf(branding, basePath, pdfshareIcon)
      made.set(branding, brand)
    }
    return brand
  }
}
