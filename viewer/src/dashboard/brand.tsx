/**
 * The instance's branding as the server put it on the page (src/routes/dashboard: data-brand-*): the name in
 * the header, titles and sign-in pages, and the logo. Its colours come from /branding.css, linked by the page.
 */
const data = document.getElementById('app')?.dataset ?? {}

export const BRAND = {
  /** The instance name, else pdfshare's. */
  name: data.brandName || 'pdfshare',
  logo: data.brandLogo ? { url: data.brandLogo, width: Number(data.brandLogoWidth), height: Number(data.brandLogoHeight) } : null,
}

/** The logo and the name, as the header and the sign-in pages show them. */
export function BrandMark() {
  return (
    <>
      {BRAND.logo && <img class="brand-logo" src={BRAND.logo.url} width={BRAND.logo.width} height={BRAND.logo.height} alt="" />}
      {BRAND.name}
    </>
  )
}
