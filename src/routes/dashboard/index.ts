import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { html, SafeHtml } from '../../lib/html'
import type { ViewerManifest } from '../../assets/viewer-assets'
import { type PageBrand, pageBrands } from '../../core/branding/page-brand'
import { brandingSource } from '../../core/branding/read-branding'
import { DASHBOARD_CATALOGS, dashboardMessagesJson } from '../../core/i18n/dashboard-catalogs'
import { chooseLanguage, LANGUAGE_COOKIE } from '../../core/i18n/negotiate'
import { cookieValues } from '../../lib/cookies'
import { directionOf, type Language } from '../../shared/languages'

/**
 * The dashboard's policy: its own scripts, styles and images only, requests to our API only, no inline
 * script, no framing. The token is kept by the page in sessionStorage and sent as a bearer header; no cookie
 * carries a session (the language picker's cookie only names a language), so nothing for cross-site requests to ride on.
 */
const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * GET /app: the owner's dashboard, one page that is a client of the JSON API (no second way to change data).
 * The page is the same for everyone who reads its language; who is signed in lives only in the browser tab. It
 * carries the instance's branding (docs/operations.md, Branding): the name in its title and header, the logo, the
 * accent's stylesheet. Its language is chosen as a reader's page's is (the picker's cookie, the browser's
 * Accept-Language, PDFSHARE_DEFAULT_LANGUAGE: docs/languages.md), and the page holds that language's messages only.
 */
export function dashboardRoutes(ctx: AppContext, manifest: ViewerManifest) {
  const basePath = new URL(ctx.config.publicUrl).pathname.replace(/\/$/, '')
  const branding = brandingSource(ctx)
  const brandOf = pageBrands(basePath, `${basePath}/assets/${manifest.favicon}`)
  const pageOf = (brand: PageBrand, language: Language) => {
    // The dashboard is the owners' own: pdfshare's icon stays unless there is a logo.
    const icon = brand.logo
      ? { href: brand.logo.url, type: 'image/png' }
      : { href: `${basePath}/assets/${manifest.favicon}`, type: 'image/svg+xml' }
    return html`<!doctype html>
<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${brand.name ?? 'pdfshare'}</title>
<link rel="icon" href="${icon.href}" type="${icon.type}">
<link rel="stylesheet" href="${basePath}/assets/${manifest.dashboard.style}">${brand.stylesheet ? html`\n<link rel="stylesheet" href="${brand.stylesheet}">` : ''}
<script type="module" src="${basePath}/assets/${manifest.dashboard.script}"></script>
</head>
<body>
<script type="application/json" id="dashboard-messages">${new SafeHtml(dashboardMessagesJson(language))}</script>
<div id="app" data-api="${basePath}/api" data-sso="${ctx.config.oidcIssuer === undefined ? '' : ctx.config.oidcName}" data-password-sign-in="${String(ctx.config.passwordSignIn)}" data-auth-proxy="${String(ctx.config.authProxyHeader !== undefined)}" data-mail="${String(ctx.config.smtpUrl !== undefined)}" data-brand-name="${brand.name ?? ''}" data-brand-logo="${brand.logo?.url ?? ''}" data-brand-logo-width="${brand.logo?.width ?? ''}" data-brand-logo-height="${brand.logo?.height ?? ''}"><noscript>${DASHBOARD_CATALOGS[language]['page.noscript'] ?? DASHBOARD_CATALOGS.en['page.noscript']}</noscript></div>
</body>
</html>
`.value
  }
  // One page a branding and language, made when first asked for.
  const pages = new WeakMap<PageBrand, Map<Language, string>>()
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    // The same address is another language for another browser or cookie: no cache may hand one's page to another.
    vary: 'Accept-Language, Cookie',
    'content-security-policy': DASHBOARD_CSP,
    'cache-control': 'no-cache',
    'x-robots-tag': 'noindex, nofollow',
  }
  const serve = async ({ request, set }: { request: Request; set: { headers: Record<string, string | number> } }) => {
    const brand = brandOf(await branding.refresh())
    const language = chooseLanguage(
      { cookie: cookieValues(request.headers.get('cookie'), LANGUAGE_COOKIE)[0], acceptLanguage: request.headers.get('accept-language') },
      { fallback: ctx.config.defaultLanguage },
    )
    let made = pages.get(brand)
    if (!made) {
      made = new Map()
      pages.set(brand, made)
    }
    let page = made.get(language)
    if (!page) {
      page = pageOf(brand, language)
      made.set(language, page)
    }
    Object.assign(set.headers, headers)
    return page
  }
  // Pages, not part of the API: kept out of the OpenAPI document. The bare address leads to the dashboard.
  const hidden = { detail: { hide: true } }
  return new Elysia({ name: 'dashboard' })
    .get('/', ({ redirect }) => redirect(`${basePath}/app`, 302), hidden)
    .get('/app', serve, hidden)
    .get('/app/', serve, hidden)
}
