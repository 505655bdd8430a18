import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { html } from '../../lib/html'
import type { ViewerManifest } from '../../assets/viewer-assets'

/**
 * The dashboard's policy: its own scripts, styles and images only, requests to our API only, no inline
 * script, no framing. The token is kept by the page in sessionStorage and sent as a bearer header; there
 * are no cookies, so nothing for cross-site requests to ride on.
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
 * The page is the same for everyone; who is signed in lives only in the browser tab.
 */
export function dashboardRoutes(ctx: AppContext, manifest: ViewerManifest) {
  const basePath = new URL(ctx.config.publicUrl).pathname.replace(/\/$/, '')
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>pdfshare</title>
<link rel="icon" href="${basePath}/assets/${manifest.favicon}" type="image/svg+xml">
<link rel="stylesheet" href="${basePath}/assets/${manifest.dashboard.style}">
<script type="module" src="${basePath}/assets/${manifest.dashboard.script}"></script>
</head>
<body>
<div id="app" data-api="${basePath}/api" data-sso="${ctx.config.oidcIssuer === undefined ? '' : ctx.config.oidcName}" data-password-sign-in="${String(ctx.config.passwordSignIn)}" data-auth-proxy="${String(ctx.config.authProxyHeader !== undefined)}" data-mail="${String(ctx.config.smtpUrl !== undefined)}"><noscript>The pdfshare dashboard needs JavaScript. The API works without it: see the README.</noscript></div>
</body>
</html>
`.value
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': DASHBOARD_CSP,
    'cache-control': 'no-cache',
    'x-robots-tag': 'noindex, nofollow',
  }
  const serve = ({ set }: { set: { headers: Record<string, string | number> } }) => {
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
