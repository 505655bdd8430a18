import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run } from '../../scripts/support/process'
import { startSmtpServer } from '../support/smtp'

// Mail over STARTTLS with AUTH, from pdfshare processes that trust the test certificate (NODE_EXTRA_CA_CERTS, as
// an install with a private CA would): `pdfshare mail test` prints exactly what the server said.

const dir = mkdtempSync(join(tmpdir(), 'pdfshare-mail-'))
// A self-signed certificate for localhost made for these tests (valid 100 years), so no openssl is needed here.
const key = join(import.meta.dir, '..', 'fixtures', 'smtp-tls', 'key.pem')
const cert = join(import.meta.dir, '..', 'fixtures', 'smtp-tls', 'cert.pem')
let smtp: Awaited<ReturnType<typeof startSmtpServer>>

beforeAll(async () => {
  smtp = await startSmtpServer({ tls: { key, cert } })
})
afterAll(() => {
  smtp?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const mailTest = (url: string, to: string) =>
  run(['mail', 'test', to, '--data', join(dir, 'data')], { env: { PDFSHARE_SMTP_URL: url, NODE_EXTRA_CA_CERTS: cert } })

test('over STARTTLS with the right password: sent, and the server’s answer printed; the connection was encrypted', async () => {
  const sent = await mailTest(`smtp://mailer:mail%20password@localhost:${smtp.port}`, 'admin@example.com')
  expect(sent.code, sent.stderr).toBe(0)
  expect(sent.stdout).toContain('sent to admin@example.com; the server answered: 250')
  const mail = await smtp.next('admin@example.com')
  expect(mail.secure).toBe(true)
  expect(mail.data).toContain('Subject: pdfshare: a test mail')
})

test('a wrong password: exit 1 with the server’s refusal, and no password in the output', async () => {
  const refused = await mailTest(`smtp://mailer:wrong-secret@localhost:${smtp.port}`, 'admin@example.com')
  expect(refused.code).toBe(1)
  expect(refused.stderr).toContain('535')
  expect(refused.stdout + refused.stderr).not.toContain('wrong-secret')
})

test('a certificate nobody vouches for is refused, and so is a server that is not there', async () => {
  const untrusted = await run(['mail', 'test', 'a@example.com', '--data', join(dir, 'data')], {
    env: { PDFSHARE_SMTP_URL: `smtp://mailer:mail%20password@localhost:${smtp.port}` },
  })
  expect(untrusted.code).toBe(1)
  expect(untrusted.stderr).toMatch(/certificate/i)
  const nobody = await mailTest('smtp://localhost:9', 'a@example.com')
  expect(nobody.code).toBe(1)
  expect(nobody.stderr).toMatch(/ECONNREFUSED|connect/i)
  const usage = await run(['mail', 'test', '--data', join(dir, 'data')], { env: {} })
  expect(usage.code).toBe(2)
})
