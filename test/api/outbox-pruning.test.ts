import { expect, test } from 'bun:test'
import { KEEP_FINISHED_MS, pruneFinishedOutbox } from '../../src/core/outbox/prune'
import { randomId } from '../../src/lib/ids'
import { startTestApp } from '../support/harness'

// What the server deletes of its outboxes: webhook deliveries and mails that finished more than 30 days ago.
const server = await startTestApp()

test('finished webhook deliveries and mails go after 30 days; pending ones and younger ones stay', async () => {
  const { webhooks, webhookDeliveries, mailOutbox } = server.ctx.db.tables
  const owner = await server.user('outbox-owner')
  const now = Date.now() // the real clock: through the balancer the instances prune on it too (at their start, then hourly)
  const old = now - KEEP_FINISHED_MS - 1
  const young = now - KEEP_FINISHED_MS + 60_000
  await server.ctx.db.orm
    .insert(webhooks)
    .values({ id: 'hook', ownerId: owner.id, url: 'https://hooks.example.com/x', events: '["file.uploaded"]', secret: 's', createdAt: old })
  const delivery = (id: string, status: string, createdAt: number) => ({
    id,
    webhookId: 'hook',
    event: 'file.uploaded',
    payload: '{}',
    createdAt,
    status,
    attempts: 1,
    nextAttemptAt: createdAt,
  })
  await server.ctx.db.orm
    .insert(webhookDeliveries)
    .values([
      delivery('d-old', 'delivered', old),
      delivery('d-failed', 'failed', old),
      delivery('d-pending', 'pending', old),
      delivery('d-young', 'delivered', young),
    ])
  const mail = (id: string, status: string, createdAt: number) => ({
    id: `${id}-${randomId()}`,
    kind: 'test',
    toAddress: 'a@example.com',
    subject: id,
    textBody: '',
    htmlBody: '',
    createdAt,
    status,
    attempts: 1,
    nextAttemptAt: createdAt,
  })
  await server.ctx.db.orm
    .insert(mailOutbox)
    .values([mail('m-old', 'sent', old), mail('m-pending', 'pending', old), mail('m-young', 'sent', young)])

  expect(await pruneFinishedOutbox({ ...server.ctx, now: () => now })).toBe(3)
  expect((await server.ctx.db.orm.select().from(webhookDeliveries)).map((row) => row.id).sort()).toEqual(['d-pending', 'd-young'])
  expect((await server.ctx.db.orm.select().from(mailOutbox)).map((row) => row.subject).sort()).toEqual(['m-pending', 'm-young'])
})
