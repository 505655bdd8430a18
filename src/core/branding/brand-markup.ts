import type { PageBrand } from './page-brand'
import { html, type SafeHtml } from '../../lib/html'

/**
 * The branding's pieces of a public page (docs/operations.md, Branding), kept apart from the pages themselves:
 * the icon and the accent's stylesheet in the head, the logo and name in the toolbar or atop a gate page. Every
 * value is HTML-escaped; nothing is inline style (the CSP allows stylesheets of our origin only). Here, below the
 * routes, because more than one area draws them (the share pages of routes/share/ are the first).
 */

/** The page's icon: the logo, pdfshare's, or an empty one (no request for /favicon.ico, no pdfshare icon). */
export function brandIcon(brand: PageBrand): SafeHtml {
  return brand.icon ? html`<link rel="icon" href="${brand.icon.href}" type="${brand.icon.type}">` : html`<link rel="icon" href="data:,">`
}

/** The accent's stylesheet, after the page's own (its custom properties win); nothing without an accent. */
export function brandStylesheet(brand: PageBrand): SafeHtml | '' {
  return brand.stylesheet ? html`\n<link rel="stylesheet" href="${brand.stylesheet}">` : ''
}

/** The logo and the name; the logo is decorative beside the name, and named by it when alone. */
export function brandMark(brand: PageBrand): SafeHtml | '' {
  if (!brand.logo && !brand.name) return ''
  const logo = brand.logo
    ? html`<img class="brand-logo" src="${brand.logo.url}" width="${brand.logo.width}" height="${brand.logo.height}" alt="${brand.name ? '' : 'Logo'}">`
    : ''
  return html`<span class="brand-mark">${logo}${brand.name ? html`<span class="brand-name">${brand.name}</span>` : ''}</span>`
}

/** The bar atop a page that stands in for a document (a gate, a 404, a 410): the same mark. */
export function brandBar(brand: PageBrand): SafeHtml | '' {
  const mark = brandMark(brand)
  return mark ? html`<header class="brand-bar">${mark}</header>\n` : ''
}
