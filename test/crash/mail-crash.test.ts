import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run, startServer } from '../../scripts/support/process'
import { bearer } from '../support/bearer'
import { eventually } from '../support/eventually'
import { startSmtpServer } from '../support/smtp'

// A real pdfshare process from source, killed with SIGKILL while its mail worker has mails in flight (the SMTP
// server holds each 1.5 s before it says 250), then started again on the same data dir.
const smtp = await startSmtpServer({ holdMs: 1_500 })
afterAll(() => smtp.stop())

test('kill -9 mid-send: every queued mail arrives after the restart, only those in flight at the kill twice, with one Message-ID', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-mail-crash-'))
  const env = { PDFSHARE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PDFSHARE_RATE_LIMIT_API: '0' }
  let server = await startServer(['--data', dataDir], { env })
  try {
    await run(['user', 'add', 'carol', '--admin', '--data', dataDir])
    const token = (await run(['token', 'issue', 'carol', '--ttl', 'never', '--data', dataDir])).stdout.trim()
    const invited: string[] = []
    for (let i = 0; i < 6; i++) {
      const answer = await fetch(`${server.url}/api/admin/invitations`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ email: `guest${i}@example.test` }),
      })
      expect(answer.status).toBe(201)
      invited.push(`guest${i}@example.test`)
    }
    await eventually(() => expect(smtp.holding.length).toBeGreaterThan(0))
    server.proc.kill('SIGKILL')
    await server.proc.exited
    const inFlight = smtp.holding.flat()

    server = await startServer(['--data', dataDir], { env })
    const arrived = (address: string) => smtp.received.filter((mail) => mail.to.includes(address))
    // The others at once; those in flight at the kill once their claim's lease (60 s) is over: pdfshare never
    // saw the server's answer, so it sends them again. (One claimed but not yet at the SMTP server when the kill
    // came is not among those held there, and waits out its lease too.)
    await eventually(() => expect(invited.filter((address) => arrived(address).length === 0)).toEqual([]), 150_000)
    await eventually(() => expect(inFlight.filter((address) => arrived(address).length < 2)).toEqual([]), 150_000)
    for (const address of invited) {
      const mails = arrived(address)
      expect(mails.length, address).toBe(inFlight.includes(address) ? 2 : 1)
      const ids = new Set(mails.map((mail) => /^Message-ID: (.+)$/im.exec(mail.data)![1]!.trim()))
      expect(ids.size, address).toBe(1)
    }
    const outbox = (await (await fetch(`${server.url}/api/admin/mail`, { headers: bearer(token) })).json()).data
    expect(outbox.filter((mail: { status: string }) => mail.status !== 'sent')).toEqual([])
    expect(await server.stop()).toBe(0)
  } finally {
    server.proc.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 240_000)
