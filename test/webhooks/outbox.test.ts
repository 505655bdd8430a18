import { test, expect } from 'bun:test'
import { sql } from 'drizzle-orm'
import { startTestApp } from '../support/harness'
import { enqueueEvent, outboxStatement } from '../../src/core/webhooks/outbox'
test("an event becomes one pending delivery for each of the owner's webhooks that asked for it, only if its condition holds, from a drizzle batch or a hot group", async () => {
  const server = await startTestApp()
  const u = await server.user('bob')
  const other = await server.user('eve')
  const { webhooks, webhookDeliveries } = server.ctx.db.tables
  await server.ctx.db.orm.insert(webhooks).values([
    { id: 'w1', ownerId: u.id, url: 'http://x', events: '["file.uploaded","link.viewed"]', secret: 's', createdAt: 1 },
    { id: 'w2', ownerId: u.id, url: 'http://y', events: '["file.deleted"]', secret: 's', createdAt: 1 },
    { id: 'w3', ownerId: other.id, url: 'http://z', events: '["file.uploaded"]', secret: 's', createdAt: 1 },
  ])
  await server.ctx.db.orm.batch([
    server.ctx.db.orm.run(enqueueEvent(server.ctx.db, { event: 'file.uploaded', ownerId: u.id, data: { a: 1 }, at: 5 })),
    server.ctx.db.orm.run(
      enqueueEvent(server.ctx.db, { event: 'file.uploaded', ownerId: u.id, data: { a: 2 }, at: 5, onlyIf: sql`1 = 0` }),
    ),
  ])
  await server.ctx.db.hot.runGroups([[outboxStatement(server.ctx.db, { event: 'link.viewed', ownerId: u.id, data: { b: "it's" }, at: 6 })]])
  const rows = await server.ctx.db.orm.select().from(webhookDeliveries)
  expect(rows.map((r) => [r.webhookId, r.event, JSON.parse(r.payload).data])).toEqual([
    ['w1', 'file.uploaded', { a: 1 }],
    ['w1', 'link.viewed', { b: "it's" }],
  ])
  expect(rows[0]!.id).toMatch(/^msg_[0-9a-f]{32}$/)
})
