import { t } from 'elysia'

/** GET /api/health: the process answers, and which version it runs. */
export const HealthEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ status: t.Literal('ok'), version: t.String() }) })
