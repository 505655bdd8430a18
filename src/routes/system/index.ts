import { Elysia } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import { VERSION } from '../../version'
import { HealthEnvelope } from './model'

/**
 * Unauthenticated routes: the health probe and the OpenAPI document (generated from the route schemas).
 * `publicUrl` is the document's one server: its paths (/api/…) are relative to it, prefix included. `storeHealth`:
 * the blob store's, from what its latest requests found (it never waits on the store); `jobs`: the job runner's
 * states (core/jobs).
 */
export function systemRoutes(
  publicUrl: string,
  storeHealth: () => 'ok' | 'degraded' = () => 'ok',
  jobs: () => { name: string; failingSince: number | null }[] = () => [],
) {
  return new Elysia({ name: 'system' })
    .use(
      openapi({
        provider: null, // no hosted UI: its page would load scripts from a CDN
        specPath: '/api/openapi.json',
        // The public share pages are not part of the API. Paths with a dot are kept (the plugin would drop them as
        // static files by default): GET /api/files/{id}/visits.csv is an operation.
        exclude: { paths: [/^\/s\//, /^\/assets\//, /^\/api\/openapi\.json$/], staticFile: false },
        documentation: {
          info: {
            title: 'pdfshare API',
            version: VERSION,
            description:
              'Upload PDFs, manage their metadata and share links. Every route except /api/health and /api/openapi.json ' +
              'needs `Authorization: Bearer <token>` (issue one with `pdfshare token issue NAME`).',
          },
          servers: [{ url: publicUrl, description: 'This pdfshare server (its public URL)' }],
          components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
          security: [{ bearer: [] }],
        },
      }),
    )
    .get(
      '/api/health',
      () => {
        const store = storeHealth()
        const byName = Object.fromEntries(
          jobs().map((job) => [job.name, job.failingSince === null ? ('ok' as const) : ('failing' as const)]),
        )
        const failing = Object.values(byName).includes('failing')
        return {
          success: true as const,
          data: { status: store === 'ok' && !failing ? ('ok' as const) : ('degraded' as const), store, jobs: byName, version: VERSION },
        }
      },
      {
        response: { 200: HealthEnvelope },
        detail: {
          summary: 'Liveness probe (no authentication): 200 while the process answers; "degraded" when the file store does not',
          tags: ['system'],
          security: [],
        },
      },
    )
}
