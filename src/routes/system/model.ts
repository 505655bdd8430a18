import { t } from 'elysia'

/**
 * GET /api/health: the process answers, which version it runs, and whether the file store answers (`degraded`: an
 * S3 bucket's latest requests timed out or were refused; the process still serves what does not need it).
 */
export const HealthEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Object({ status: t.UnionEnum(['ok', 'degraded']), store: t.UnionEnum(['ok', 'degraded']), version: t.String() }),
})
