import { describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { routeEvents } from '../../src/core/notifications/route-events'
import { makePdf } from '../../scripts/support/pdf'
import { untilDrawn } from '../support/busy'
import { json, startTestApp, type TestServer } from '../support/harness'
import { addLink, type TestLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { browserClients } from '../support/browser-client'

// Erasing a reader (docs/readers.md, Privacy): the address goes from every place pdfshare keeps it, in one go —
// visits, acceptances, codes, the reader events behind notifications, the notification deliveries (30 days),
// the mail outbox (the code mails), and the watermarked copies of pages and downloads in the page cache. The
// database check lists the tables and columns from the database itself, so a new table that keeps an address
// is caught here without anyone adding it to this test. The mail worker and the notifier are not started: what
// they would send waits in their outboxes, where the test can see it.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_SMTP_URL: 'smtp://127.0.0.1:9' })
const HOUR = 3_600_000

/** A reader's browser: one client address, one cookie jar. */
const reader = browserClients(server, '198.51')
const call = (token: string, method: string, path: string, body?: unknown) =>
  server.call(method, path, {
    token,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })

/** The code mailed last to `address` (read from the outbox, where the unstarted worker leaves it). */
async function codeFor(address: string): Promise<string> {
  const rows = await server.ctx.db.orm.all<{ text_body: string }>(
    sql`SELECT text_body FROM mail_outbox WHERE to_address = ${address.toLowerCase()} ORDER BY seq DESC LIMIT 1`,
  )
  return /Your code is (\d{6})\./.exec(rows[0]?.text_body ?? '')![1]!
}

/**
 * A reader through every gate of `link` as `address`: a mailed code, the agreement, the page (a counted view),
 * page 1 as an image and the download (both watermarked with the address). Answers their browser.
 */
async function readThrough(link: TestLink, address: string) {
  const someone = reader()
  expect((await someone.post(`${link.path}/reader`, { email: address })).status).toBe(200)
  expect((await someone.post(`${link.path}/code`, { email: address, code: await codeFor(address) })).status).toBe(303)
  expect((await someone.post(`${link.path}/agreement`, { version: '1', accept: 'yes' })).status).toBe(303)
  expect((await someone.get(link.path)).status).toBe(200)
  expect((await untilDrawn(() => someone.get(`${link.path}/pages/1?w=480`))).status).toBe(200)
  const download = await untilDrawn(() => someone.get(`${link.path}/download`))
  expect(download.status).toBe(200)
  await download.arrayBuffer()
  return someone
}

/** Every place in the database that holds `needle` (any column of any table, as the database lists them). */
async function placesHolding(on: TestServer, needle: string): Promise<string[]> {
  const { db } = on.ctx
  const columns =
    db.dialect === 'postgres'
      ? await db.orm.all<{ table: string; column: string }>(
          sql`SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns WHERE table_schema = current_schema()`,
        )
      : await db.orm.all<{ table: string; column: string }>(
          sql`SELECT m.name AS "table", p.name AS "column" FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'`,
        )
  expect(columns.length).toBeGreaterThan(100) // the listing is not vacuous
  const places: string[] = []
  for (const { table, column } of columns) {
    const [row] = await db.orm.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE lower(CAST(${sql.identifier(column)} AS TEXT)) LIKE ${`%${needle}%`}`,
    )
    if (Number(row?.n) > 0) places.push(`${table}.${column}`)
  }
  return places.sort()
}

/**
 * The watermarked files of this server's page cache (data/previews): copies of PDFs and page overlays. (Pages
 * drawn in the background, page 1 at the ladder's widths, come and go on their own and name no reader.)
 */
const cacheFiles = () => new Set(readdirSync(join(server.dataDir, 'previews')).filter((name) => /^watermark-|\.pw-/.test(name)))

describe('erasing a reader', () => {
  test('the address goes from every table and the page cache, in every spelling of its mailbox; other readers keep theirs', async () => {
    const owner = await server.user('erasure-owner')
    expect((await call(owner.token, 'POST', '/api/notifications/channels', { kind: 'email', target: 'owner@example.test' })).status).toBe(
      201,
    )
    const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 2 }), name: 'deck.pdf' }, { title: 'Deck' })
    const gated = { access: 'verified-email', agreement: 'Keep it to yourself.', watermark: 'For {email} on {date}' } as const
    const told = await addLink(server, file.id, { ...gated, notify: 'on' })
    const digested = await addLink(server, file.id, { ...gated, notify: 'hourly' })

    // Another reader first: what is theirs stays.
    await readThrough(told, 'bob@example.test')
    await readThrough(digested, 'bob@example.test')
    const bobs = cacheFiles()
    // The reader to erase, under two spellings of one mailbox, and a code asked for and never typed.
    await readThrough(told, 'zoe.erasable@example.test')
    await readThrough(digested, 'Zoe.Erasable+cv@example.test')
    expect(
      (await reader().post(`${(await addLink(server, file.id, gated)).path}/reader`, { email: 'zoe.erasable@example.test' })).status,
    ).toBe(200)
    const zoes = [...cacheFiles()].filter((name) => !bobs.has(name))
    // The owner is told at once of one link, in a digest of the other (its hour over).
    await routeEvents(server.ctx)
    await routeEvents({ ...server.ctx, now: () => Date.now() + 2 * HOUR })
    const messages = JSON.stringify((await json(await call(owner.token, 'GET', '/api/notifications/deliveries?limit=200'))).data)
    expect(messages).toContain('zoe.erasable@example.test opened it')
    expect(messages).toContain('Readers: bob@example.test, zoe.erasable+cv@example.test.')
    const before = await placesHolding(server, 'zoe.erasable')
    expect(before).toEqual(
      expect.arrayContaining([
        'acceptances.reader',
        'mail_outbox.to_address',
        'notification_deliveries.body',
        'reader_codes.email',
        'reader_events.reader',
        'visits.reader',
      ]),
    )
    if (!server.instances) expect(zoes.length).toBeGreaterThanOrEqual(4) // two page overlays, two stamped PDFs

    const erased = await json(await call(owner.token, 'POST', '/api/readers/erase', { address: 'Zoe.Erasable@example.test' }))
    expect(erased.data).toMatchObject({ visits: 2, acceptances: 2 })

    expect(await placesHolding(server, 'zoe.erasable')).toEqual([])
    if (!server.instances) {
      const left = cacheFiles()
      expect(zoes.filter((name) => left.has(name))).toEqual([])
      expect([...bobs].filter((name) => !left.has(name))).toEqual([])
    }
    // What was about them stays, without them: the messages name an erased reader, bob is still named.
    const after = JSON.stringify((await json(await call(owner.token, 'GET', '/api/notifications/deliveries?limit=200'))).data)
    expect(after).toContain('(erased reader) opened it')
    expect(after).toContain('Readers: bob@example.test, (erased reader).')
    expect(await placesHolding(server, 'bob@example.test')).toEqual(
      expect.arrayContaining(['acceptances.reader', 'notification_deliveries.body', 'reader_events.reader', 'visits.reader']),
    )
  }, 60_000)

  test("an owner's erasure leaves another owner's readers alone: their events and messages keep the address", async () => {
    const [mine, theirs] = [await server.user('erasure-mine'), await server.user('erasure-theirs')]
    const links: TestLink[] = []
    for (const owner of [mine, theirs]) {
      expect((await call(owner.token, 'POST', '/api/notifications/channels', { kind: 'email', target: 'owner@example.test' })).status).toBe(
        201,
      )
      const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 1 }), name: 'one.pdf' })
      links.push(await addLink(server, file.id, { access: 'verified-email', agreement: 'Terms.' }))
    }
    for (const link of links) await readThrough(link, 'ivy.twice@example.test')
    await routeEvents(server.ctx)
    expect((await call(mine.token, 'POST', '/api/readers/erase', { address: 'ivy.twice@example.test' })).status).toBe(200)
    const mineNow = JSON.stringify((await json(await call(mine.token, 'GET', '/api/notifications/deliveries'))).data)
    const theirsNow = JSON.stringify((await json(await call(theirs.token, 'GET', '/api/notifications/deliveries'))).data)
    expect(mineNow).not.toContain('ivy.twice')
    expect(theirsNow).toContain('ivy.twice@example.test')
    const theirVisits = (await json(await call(theirs.token, 'GET', `/api/links/${links[1]!.id}/visits`))).data
    expect(theirVisits[0].reader).toBe('ivy.twice@example.test')
  }, 60_000)
})
