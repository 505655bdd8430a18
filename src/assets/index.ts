import { Elysia } from 'elysia'
import type { ViewerAssets } from './viewer-assets'

/**
 * GET /assets/*: the built front ends (the share page's viewer with pdf.js, and the dashboard), which both
 * pages link to by the names in the manifest. Anything else under /assets/ is a plain 404.
 */
export function assetRoutes(assets: ViewerAssets) {
  return new Elysia({ name: 'assets' }).get(
    '/assets/*',
    ({ request, params }) =>
      assets.serve(request, params['*']) ?? new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } }),
  )
}
