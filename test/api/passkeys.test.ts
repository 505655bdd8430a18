import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config'
import { relyingParty } from '../../src/core/accounts/passkeys'
import { json, startTestApp } from '../support/harness'
import { jsonBody, PASSWORD, sessionOf } from '../support/sessions'

// Passkeys' server side without a browser: where they can work, what a bogus answer gets, and an admin's reset.
// The whole ceremony in Chromium with a virtual authenticator is test/e2e/passkeys.test.ts; with a software one, and
// who may add one, test/api/credential-changes.test.ts.

// Made once, before the tests (through the balancer it is three instances and an HAProxy).
const server = await startTestApp() // PDFSHARE_PUBLIC_URL https://pdf.example.test/base
const root = await server.user('root') // the first user: the admin
const FAKE = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30' }, clientExtensionResults: {} }

describe('passkeys', () => {
  test('options name this server as the relying party; a made-up answer is refused and nothing is kept', async () => {
    const pat = await sessionOf(server, 'pat')
    const proof = { password: PASSWORD }
    const options = await json(await server.call('POST', '/api/me/passkeys/options', { token: pat, ...jsonBody(proof) }))
    expect(options.data.rp).toEqual({ name: 'pdfshare', id: 'pdf.example.test' })
    expect(options.data.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' })
    const refused = await server.call('POST', '/api/me/passkeys', {
      token: pat,
      ...jsonBody({ name: 'Laptop', credential: FAKE, ...proof }),
    })
    expect(refused.status).toBe(400)
    expect((await json(refused)).error).toContain('The passkey was not added')
    expect((await json(await server.call('GET', '/api/me/passkeys', { token: pat }))).data).toEqual([])
    const signIn = await server.call('POST', '/api/auth/passkey', jsonBody({ credential: FAKE }))
    expect(signIn.status).toBe(401)
    expect((await json(signIn)).error).toContain('not registered here')
  })

  test('an IP address or plain http other than localhost: no relying party, and the reason says why browsers refuse', () => {
    const partyOf = (url: string) => relyingParty(loadConfig({ 'public-url': url }, {}, '/srv'))
    expect(partyOf('http://192.168.1.20:3000')).toContain('an IP address')
    expect(partyOf('http://[fd00::5]:3000')).toContain('an IP address')
    expect(partyOf('http://nas.lan:3000')).toContain('need HTTPS')
    expect(partyOf('http://localhost:3000')).toEqual({ id: 'localhost', origin: 'http://localhost:3000' })
    expect(partyOf('https://pdf.example.com/docs')).toEqual({ id: 'pdf.example.com', origin: 'https://pdf.example.com' })
  })

  test('an admin’s two-factor reset removes the passkeys too; another user’s passkey answers 404', async () => {
    const quinn = await server.user('quinn')
    await server.ctx.db.orm.insert(server.ctx.db.tables.passkeys).values({
      id: 'cred-quinn',
      userId: quinn.id,
      publicKey: 'AAAA',
      counter: 0,
      transports: 'internal',
      name: 'Phone',
      createdAt: Date.now(),
      lastUsedAt: null,
    })
    const rootSession = await sessionOf(server, 'root')
    const removal = await server.call('DELETE', '/api/me/passkeys/cred-quinn', { token: rootSession, ...jsonBody({ password: PASSWORD }) })
    expect(removal.status).toBe(404)
    const listed = (await json(await server.call('GET', '/api/admin/users', { token: root.token }))).data
    expect(listed.find((user: { name: string }) => user.name === 'quinn').passkeys).toBe(1)
    const reset = await server.call('PATCH', `/api/admin/users/${quinn.id}`, { token: root.token, ...jsonBody({ twoFactor: false }) })
    expect((await json(reset)).data.passkeys).toBe(0)
    const audit = (await json(await server.call('GET', '/api/admin/audit?action=two_factor.reset', { token: root.token }))).data
    expect(audit[0].detail).toEqual({ name: 'quinn', passkeysRemoved: 1 })
  })
})
