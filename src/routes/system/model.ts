import { t } from 'elysia'

/**
 * GET /api/health: the process answers, which version it runs, whether the file store answers (`degraded`: an
 * S3 bucket's latest requests timed out or were refused; the process still serves what does not need it), and
 * the jobs beside the server (`failing`: its latest pass failed, e.g. the outbox could not be read).
 */
export const HealthEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Object({
    status: t.UnionEnum(['ok', 'degraded'], { description: 'degraded when the store or a job is' }),
    store: t.UnionEnum(['ok', 'degraded']),
    jobs: t.Record(t.String(), t.UnionEnum(['ok', 'failing']), {
      description:
        'Each job beside the server (webhooks, mail, notifications, the pruners and sweeps) by name; none in a process that runs none',
    }),
    version: t.String(),
  }),
})
