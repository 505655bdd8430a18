import { Elysia } from 'elysia'
import { brandingSource } from '../../core/branding/read-branding'
import type { AppContext } from '../../core/context'
import { badRequest, logoTooLarge, SVG_REFUSAL, unsupportedMediaType } from '../../errors'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { readBoundedBytes } from '../../http/bounded-body'
import { mediaTypeOf } from '../../http/request-body'
import { authFailures, FailureSchema } from '../../http/schemas'
import { BRAND_LIMITS, LOGO_TYPES } from '../../shared/branding-shapes'
import { BrandingChange, BrandingEnvelope } from './model'
import { toBrandingDto } from '../../core/branding/presenter'
import { saveBranding } from '../../core/branding/save-branding'
import { setLogo } from '../../core/branding/set-logo'

const tags = ['admin']
const failures = { 403: FailureSchema, ...authFailures }
const YEAR = 'public, max-age=31536000, immutable'

/**
 * The instance's branding (docs/operations.md, Branding): for admins, GET and PATCH /api/admin/branding and the
 * logo (PUT, DELETE /api/admin/branding/logo); for every page, /branding.css (the accent colour: a stylesheet of
 * our origin, so the pages' CSP needs no inline style) and /branding/logo/<hash>.png.
 */
export function brandingRoutes(ctx: AppContext, auth: AuthGuard) {
  const source = brandingSource(ctx)
  const basePath = new URL(ctx.config.publicUrl).pathname.replace(/\/$/, '')
  const current = async () => ({ success: true as const, data: toBrandingDto(await source.read(), basePath) })
  // Page assets, not part of the API: kept out of the OpenAPI document, like /assets/*.
  const hidden = { detail: { hide: true } }
  const notFound = (set: { status?: number | string; headers: Record<string, string | number> }) => {
    set.status = 404
    Object.assign(set.headers, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
    return 'Not found'
  }

  return new Elysia({ name: 'branding' })
    .use(auth)
    .get(
      '/branding.css',
      async ({ request, set }) => {
        const { style } = await source.refresh()
        const etag = `"${style?.version ?? 'none'}"`
        // The address a page links names the version: that text never changes, so it is kept for a year. Asked
        // for without it (or an old one), it is the current text, checked again on every use.
        const versioned = style !== null && new URL(request.url).searchParams.get('v') === style.version
        Object.assign(set.headers, {
          'content-type': 'text/css; charset=utf-8',
          'cache-control': versioned ? YEAR : 'public, no-cache',
          etag,
          'x-content-type-options': 'nosniff',
        })
        if (request.headers.get('if-none-match') === etag) {
          set.status = 304
          return ''
        }
        return style?.css ?? '/* pdfshare: no accent colour is set. */\n'
      },
      hidden,
    )
    .get(
      '/branding/logo/:file',
      async ({ params, set }) => {
        const hash = /^([0-9a-f]{16})\.png$/.exec(params.file)?.[1]
        const png = hash && (await source.logo(hash))
        if (!png) return notFound(set)
        return new Response(new Uint8Array(png.buffer as ArrayBuffer, png.byteOffset, png.byteLength), {
          headers: {
            'content-type': 'image/png',
            'cache-control': YEAR,
            etag: `"${hash}"`,
            'x-content-type-options': 'nosniff',
            'content-security-policy': "default-src 'none'; sandbox",
            'cross-origin-resource-policy': 'same-origin',
          },
        })
      },
      hidden,
    )
    .get('/api/admin/branding', current, {
      auth: 'admin',
      response: { 200: BrandingEnvelope, ...failures },
      detail: { summary: 'The branding pages show: instance name, accent colour, logo, and whether pdfshare is named', tags },
    })
    .patch(
      '/api/admin/branding',
      async ({ body, audit }) => {
        const change = {
          ...(body.name !== undefined && { name: body.name === null ? null : body.name.trim().normalize('NFC') }),
          ...(body.accent !== undefined && { accent: body.accent === null ? null : body.accent.trim().toLowerCase() }),
          ...(body.hidePdfshare !== undefined && { hidePdfshare: body.hidePdfshare }),
        }
        await saveBranding(ctx, change)
        const answer = await current()
        const { name, accent, hidePdfshare } = answer.data
        await audit('branding.changed', { changed: Object.keys(change).sort().join(','), name, accent, hidePdfshare }, null)
        return answer
      },
      {
        auth: 'admin',
        parse: jsonBody(BrandingChange, 'admin'),
        body: BrandingChange,
        response: { 200: BrandingEnvelope, 400: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...failures },
        detail: {
          summary: 'Change the instance name, the accent colour, or whether share pages name pdfshare',
          description: 'Omitted fields stay; null goes back to the server’s setting (PDFSHARE_BRAND_*); a name of "" shows none.',
          tags,
        },
      },
    )
    .put(
      '/api/admin/branding/logo',
      async ({ request, audit }) => {
        const type = mediaTypeOf(request)
        if (type === 'image/svg+xml') throw unsupportedMediaType(`Send the logo as ${LOGO_TYPES.join(', ')}: ${SVG_REFUSAL}`)
        if (!(LOGO_TYPES as readonly string[]).includes(type))
          throw unsupportedMediaType(`Content-Type must be ${LOGO_TYPES.join(', ')} (got ${type || 'none'}); the body is the image itself`)
        const body = await readBoundedBytes(request, BRAND_LIMITS.logoBytes)
        if ('problem' in body) {
          if (body.problem === 'too_large') throw logoTooLarge(BRAND_LIMITS.logoBytes)
          throw badRequest('The logo did not arrive whole; send it again')
        }
        const logo = await setLogo(ctx, body.bytes)
        await audit(
          'branding.logo_set',
          { bytes: logo.bytes, width: logo.width, height: logo.height, received: body.bytes.byteLength },
          null,
        )
        return current()
      },
      {
        auth: 'admin',
        parse: 'none',
        response: { 200: BrandingEnvelope, 400: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...failures },
        detail: {
          summary: 'Set the logo: a PNG, JPEG or WebP image of at most 1 MB as the body (no SVG)',
          description:
            'The image is checked by its first bytes, decoded, scaled down to fit 720×144 and served as a new PNG; its metadata is not kept.',
          requestBody: {
            required: true,
            content: Object.fromEntries(LOGO_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
          },
          tags,
        },
      },
    )
    .delete(
      '/api/admin/branding/logo',
      async ({ audit }) => {
        await saveBranding(ctx, { logo: null })
        await audit('branding.logo_removed', {}, null)
        return current()
      },
      {
        auth: 'admin',
        response: { 200: BrandingEnvelope, ...failures },
        detail: { summary: 'Remove the logo the Admin page set (the server’s setting, if any, is shown again)', tags },
      },
    )
}
