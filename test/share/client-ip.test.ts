import { describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app'
import { BASE, json, startTestApp } from '../support/harness'
import { sharePathOf } from '../support/share-paths'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

async function sharedFile(env: Record<string, string>) {
  const server = await startTestApp(env)
  const owner = await server.user('owner')
  const file = await uploadPdf(server, owner)
  const path = sharePathOf(file)
  const views = async () => (await json(await server.call('GET', `/api/files/${file.id}`, { token: owner.token }))).data.views
  const visit = (forwardedFor: string) => server.call('GET', path, { headers: { 'user-agent': FIREFOX, 'x-forwarded-for': forwardedFor } })
  return { views, visit }
}

describe('the client address behind a reverse proxy', () => {
  test('by default X-Forwarded-For is ignored: any client could send it', async () => {
    const { views, visit } = await sharedFile({})
    await visit('203.0.113.1')
    await visit('203.0.113.2')
    expect(await views()).toBe(1) // one visitor, whatever the header claims
  })

  test('with PDFSHARE_TRUST_PROXY=1 the address the proxy appended identifies the visitor', async () => {
    const { views, visit } = await sharedFile({ PDFSHARE_TRUST_PROXY: '1' })
    await visit('203.0.113.1')
    await visit('203.0.113.2')
    await visit('198.51.100.7, 203.0.113.2') // a client-sent entry in front does not change who it is
    expect(await views()).toBe(2)
  })

  test('the per-IP limit on /s/* follows the trusted address', async () => {
    const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '2' })
    const hit = (ip: string) => server.call('GET', '/s/AAAAAAAAAAAAAAAAAAAAAA', { headers: { 'x-forwarded-for': ip } })
    expect([(await hit('203.0.113.9')).status, (await hit('203.0.113.9')).status, (await hit('203.0.113.9')).status]).toEqual([
      404, 404, 429,
    ])
    expect((await hit('203.0.113.10')).status).toBe(404)
  })

  test("IPv6 clients are limited by their /64: rotating through one network's addresses does not reset the count", async () => {
    const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '2' })
    const app = createApp({ ...server.ctx, now: () => Date.UTC(2026, 10, 22, 12, 0, 15) }) // one window for the whole test
    const hit = (ip: string) => app.handle(new Request(`${BASE}/s/AAAAAAAAAAAAAAAAAAAAAA`, { headers: { 'x-forwarded-for': ip } }))
    const statuses = []
    for (const ip of ['2001:db8:5:6::1', '2001:db8:5:6:ffff::2', '2001:db8:5:6:1234:5678:9abc:def0']) statuses.push((await hit(ip)).status)
    expect(statuses).toEqual([404, 404, 429])
    expect((await hit('2001:db8:5:7::1')).status).toBe(404) // the next /64 is someone else
  })
})
