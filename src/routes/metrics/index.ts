import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { notFound, unauthorized } from '../../errors'
import { hasMetricsToken } from '../../core/metrics/check-metrics-token'

/**
 * GET /metrics, Prometheus' text format, for the operator's Prometheus: absent (404, like any unknown path)
 * unless PDFSHARE_METRICS_TOKEN is set, and then only with that token as a bearer token. Not part of the API
 * (no user token opens it, and the OpenAPI document leaves it out).
 */
export function metricsRoutes(ctx: AppContext) {
  const { metricsToken } = ctx.config
  return new Elysia({ name: 'metrics' }).get(
    '/metrics',
    async ({ request }) => {
      if (metricsToken === undefined || !ctx.metrics.enabled) throw notFound('Not found')
      if (!hasMetricsToken(request.headers.get('authorization'), metricsToken)) throw unauthorized()
      const { contentType, text } = await ctx.metrics.collect()
      return new Response(text, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } })
    },
    { detail: { hide: true } },
  )
}
