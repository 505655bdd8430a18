import { afterAll, describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import { startNotifier } from '../../src/core/notifications/notifier'
import { NOTICES_PER_LINK_HOUR } from '../../src/core/notifications/route-events'
import { makePdf } from '../../scripts/support/pdf'
import { eventually } from '../support/eventually'
import { BASE, startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { decodedMail } from '../support/mime'
import { startSmtpServer } from '../support/smtp'
import { uploadPdf } from '../support/uploads'
import { browserNumber } from '../support/user-agents'

// The owners' notifications speak the instance's default language (PDFSHARE_DEFAULT_LANGUAGE; docs/languages.md,
// Mails), not their readers': an owner's mail channel on a German instance gets German mails, their times and
// periods through Intl, whatever language the reader's browser asked for.
const smtp = await startSmtpServer()
afterAll(() => smtp.stop())
const server = await startTestApp({
  PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
  PDFSHARE_TRUST_PROXY: '1',
  PDFSHARE_RATE_LIMIT_SHARE: '0',
  PDFSHARE_DEFAULT_LANGUAGE: 'de',
})
const HOUR = 3_600_000
let now = Date.UTC(2026, 10, 25, 9, 5, 0)
const clocked = { ...server.ctx, now: () => now }
const app = createApp(clocked)
const notifier = startNotifier(clocked, { pollMs: 3_600_000 })
afterAll(() => notifier.stop())
let readers = 0
/** A new reader, whose browser asks for Japanese, opens `path` on the pinned clock. */
const read = (path: string) =>
  app.handle(
    new Request(`${BASE}${path}`, {
      headers: {
        'user-agent': browserNumber(++readers),
        'x-forwarded-for': `198.51.${readers >> 8}.${readers & 255}`,
        'accept-language': 'ja',
      },
    }),
  )
/** The `count` mails the owner got so far, once they reached the test SMTP server, decoded in the order they came. */
async function ownersMails(count: number) {
  await eventually(async () => {
    if (smtp.received.filter((one) => one.to.includes('owner@example.test')).length < count) throw new Error('not yet')
  })
  return smtp.received.filter((one) => one.to.includes('owner@example.test')).map((one) => decodedMail(one.data))
}
async function deliver() {
  notifier.nudge()
  await notifier.idle()
}

describe("the owners' notification mails", () => {
  test("are in the instance's default language: a new reader at once, then the hour's digest", async () => {
    const owner = await server.user('german-owner')
    const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 1 }), name: 'plan.pdf' }, { title: 'Geschäftsplan' })
    const channel = await app.handle(
      new Request(`${BASE}/api/notifications/channels`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'email', target: 'owner@example.test' }),
      }),
    )
    expect(channel.status).toBe(201)
    const link = await addLink(server, file.id, { label: 'Vorstand' })
    expect((await read(link.path)).status).toBe(200)
    await deliver()
    const [told] = await ownersMails(1)
    expect(told!.subject).toBe('Neuer Leser: Geschäftsplan')
    expect(told!.text).toContain('Jemand hat es über den Link „Vorstand“ um 09:05 UTC geöffnet.')
    expect(told!.html).toContain('<html lang="de" dir="ltr">')

    // Past the hour's notices at once, the rest waits for the digest, counted in German.
    for (let i = 1; i < NOTICES_PER_LINK_HOUR + 2; i++) expect((await read(link.path)).status).toBe(200)
    await deliver()
    expect(await ownersMails(NOTICES_PER_LINK_HOUR)).toHaveLength(NOTICES_PER_LINK_HOUR)
    now += HOUR
    await deliver()
    const digest = (await ownersMails(NOTICES_PER_LINK_HOUR + 1)).at(-1)!
    expect(digest.subject).toBe('Geschäftsplan: 2 neue Leser')
    expect(digest.text).toMatch(/^Über den Link „Vorstand“, von 25\. Nov\. 2026, 09:00 UTC bis 25\. Nov\. 2026, 10:00 UTC\./)
  })
})
