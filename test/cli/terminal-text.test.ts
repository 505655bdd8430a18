import { describe, expect, test } from 'bun:test'
import { run } from '../../scripts/support/process'
import { json, startTestApp } from '../support/harness'

// Text a user typed, shown on an operator's terminal (security issue 33, item 14): a token label with ESC, CR or
// an OSC sequence must not be stored, and what is already stored must not reach the terminal as control codes.

const server = await startTestApp()
const alice = await server.user('alice')
const cli = (...args: string[]) =>
  run([...args, '--data', server.dataDir], { env: { ...server.backendEnv, PDFSHARE_DATABASE_URL: server.config.databaseUrl } })
const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })

// Retitles the terminal (OSC 0), then returns the cursor and draws a row of its own over the real one.
const FORGED = 'ci\u001b]0;pwned\u0007\rFAKEID  root  deploy'
const CONTROL_CODES = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/

describe('token labels', () => {
  test('the API refuses a label with control characters or bidi overrides, and keeps nothing', async () => {
    for (const label of [FORGED, 'a\rb', 'invoice\u202Efdp.exe', 'bell\u0007', 'next\u0085line']) {
      const refused = await server.call('POST', '/api/tokens', { token: alice.token, ...jsonBody({ label }) })
      expect(refused.status, JSON.stringify(label)).toBe(400)
      expect(await json(refused)).toMatchObject({ code: 'invalid_request' })
    }
    const kept = (await json(await server.call('GET', '/api/tokens', { token: alice.token }))).data
    expect(kept.map((token: { label: string }) => token.label)).toEqual(['test'])
    const accepted = await server.call('POST', '/api/tokens', { token: alice.token, ...jsonBody({ label: 'Laptop – שלום' }) })
    expect(accepted.status).toBe(201)
  })

  test('pdfshare token issue refuses the same labels', async () => {
    const refused = await cli('token', 'issue', 'alice', '--label', FORGED)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('label must not contain control characters')
    expect(refused.stdout).toBe('')
  })

  test('a label stored before the rule is printed escaped by token list: no control code reaches the terminal', async () => {
    const { tokens } = server.ctx.db.tables
    await server.ctx.db.orm
      .insert(tokens)
      .values({ id: 'old-token', userId: alice.id, label: FORGED, createdAt: Date.now(), expiresAt: null, revokedAt: null, scopes: null })
    const listed = await cli('token', 'list', 'alice')
    expect(listed.code).toBe(0)
    expect(listed.stdout).not.toMatch(CONTROL_CODES)
    expect(listed.stdout).toContain('ci\\x1b]0;pwned\\x07\\rFAKEID  root  deploy')
    const rows = listed.stdout.trimEnd().split('\n')
    expect(rows).toHaveLength(4) // the header, test, Laptop and the old token: no row forged
    expect(rows.find((row) => row.startsWith('old-token'))).toContain('active')
  })
})
