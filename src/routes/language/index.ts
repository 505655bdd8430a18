import { Elysia, t } from 'elysia'
import type { AppContext } from '../../core/context'
import { LANGUAGE_COOKIE } from '../../core/i18n/negotiate'
import { readerPageOr } from '../../core/i18n/reader-pages'
import { setCookieHeader } from '../../lib/cookies'
import { isLanguage } from '../../shared/languages'

/** The picker's cookie is kept a year: a reader's language is not a secret, and rarely changes. */
const LANGUAGE_COOKIE_MS = 365 * 24 * 60 * 60 * 1000

/**
 * `GET /language/:tag?back=<path>`: the language picker's links (core/i18n/page-markup.ts). Sets the cookie
 * (`pdfshare_lang`, the whole site, SameSite=Lax) and sends the reader back to the page they were on; a `back`
 * that is neither a reader's page of this site nor its dashboard (`/app`) goes to its root, so the link cannot send anyone elsewhere. A tag that
 * is not one of ours is a 404. A link (not a form): it works without script, and the pages' CSP lets no form out.
 */
export function languageRoutes(ctx: AppContext) {
  const basePath = new URL(ctx.config.publicUrl).pathname.replace(/\/$/, '')
  const secure = ctx.config.publicUrl.startsWith('https:')
  return new Elysia({ name: 'language' }).get(
    '/language/:tag',
    ({ params, query, set }) => {
      set.headers['cache-control'] = 'no-store'
      if (!isLanguage(params.tag)) {
        set.status = 404
        set.headers['content-type'] = 'text/plain; charset=utf-8'
        return 'No such language.'
      }
      set.status = 303
      // The dashboard's picker leads back to the dashboard (its links carry the page's #route, which the redirect keeps).
      const back = query.back === `${basePath}/app` ? query.back : readerPageOr(basePath, query.back ?? '')
      set.headers.location = back ?? `${basePath}/`
      set.headers['set-cookie'] = setCookieHeader(LANGUAGE_COOKIE, params.tag, {
        path: `${basePath}/`,
        lifetimeMs: LANGUAGE_COOKIE_MS,
        secure,
      })
      return ''
    },
    { params: t.Object({ tag: t.String() }), query: t.Object({ back: t.Optional(t.String()) }), detail: { hide: true } },
  )
}
