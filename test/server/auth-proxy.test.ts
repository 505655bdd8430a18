import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run, startServer } from '../../scripts/support/process'

// Behind an authenticating proxy (docs/sign-in.md): the header counts only on a connection from the proxy's
// addresses, which must be named, and with PDFSHARE_AUTH_PROXY_SECRET only with the proxy's secret header too; this
// test connects from 127.0.0.1, which is the proxy in the first servers and a stranger in the second.

const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-auth-proxy-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const signIn = (url: string, headers: Record<string, string>) =>
  fetch(`${url}/api/auth/proxy`, { method: 'POST', headers: { 'user-agent': 'test', ...headers } })

test('from the proxy: the named user gets a session (made on first sight); a disabled one is refused; no header, no session', async () => {
  await run(['user', 'add', 'root', '--data', dataDir])
  await run(['user', 'add', 'olga', '--data', dataDir])
  const server = await startServer(['--data', dataDir], {
    env: { PDFSHARE_AUTH_PROXY_HEADER: 'Remote-User', PDFSHARE_AUTH_PROXY_ADDRESSES: '127.0.0.1,::1' },
  })
  try {
    const page = await (await fetch(`${server.url}/app`)).text()
    expect(page).toContain('data-auth-proxy="true"')
    const olga = await signIn(server.url, { 'remote-user': 'olga' })
    expect(olga.status).toBe(200)
    const session = (await olga.json()).data
    expect(session.user.name).toBe('olga')
    const me = await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${session.token}` } })
    expect((await me.json()).data.name).toBe('olga')

    const fresh = await signIn(server.url, { 'remote-user': 'newcomer' })
    expect((await fresh.json()).data.user.name).toBe('newcomer')
    const listed = await run(['user', 'list', '--data', dataDir])
    expect(listed.stdout).toMatch(/^newcomer\s/m)

    const nobody = await signIn(server.url, {})
    expect(nobody.status).toBe(401)
    expect((await nobody.json()).error).toBe('The authenticating proxy did not name a user')
    const badName = await signIn(server.url, { 'remote-user': '../etc' })
    expect(badName.status).toBe(400)

    const rootToken = (await run(['token', 'issue', 'root', '--data', dataDir])).stdout.trim()
    const disabled = await fetch(`${server.url}/api/admin/users/${session.user.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${rootToken}`, 'content-type': 'application/json' },
      body: '{"disabled": true}',
    })
    expect(disabled.status).toBe(200)
    const refused = await signIn(server.url, { 'remote-user': 'olga' })
    expect(refused.status).toBe(403)
    expect((await refused.json()).code).toBe('account_disabled')
  } finally {
    await server.stop()
  }
})

test('from anywhere else the header gets nothing, whatever X-Forwarded-For says', async () => {
  const server = await startServer(['--data', dataDir], {
    env: {
      PDFSHARE_AUTH_PROXY_HEADER: 'Remote-User',
      PDFSHARE_AUTH_PROXY_ADDRESSES: '10.9.9.9, 192.168.50.0/24',
      PDFSHARE_TRUST_PROXY: '1',
    },
  })
  try {
    const refused = await signIn(server.url, { 'remote-user': 'olga', 'x-forwarded-for': '10.9.9.9' })
    expect(refused.status).toBe(401)
    expect((await refused.json()).error).toContain('did not come from the authenticating proxy')
  } finally {
    await server.stop()
  }
})

test('the header without the proxy’s addresses: the server does not start, and says why in one line', async () => {
  // Before, the addresses defaulted to this machine: every local program (a cron job, a container on the host
  // network, a compromised web app) could sign in as anyone.
  const outcome = await startServer(['--data', dataDir], { env: { PDFSHARE_AUTH_PROXY_HEADER: 'Remote-User' } }).then(
    async (server) => {
      await server.stop()
      return 'started'
    },
    (error: Error) => error.message,
  )
  expect(outcome).toContain(
    'pdfshare: PDFSHARE_AUTH_PROXY_HEADER needs PDFSHARE_AUTH_PROXY_ADDRESSES, the addresses the proxy connects from',
  )
})

test('with PDFSHARE_AUTH_PROXY_SECRET, a connection from the proxy’s address also needs the secret in Pdfshare-Proxy-Secret', async () => {
  const secret = 'the proxy and pdfshare share this'
  const server = await startServer(['--data', dataDir], {
    env: { PDFSHARE_AUTH_PROXY_HEADER: 'Remote-User', PDFSHARE_AUTH_PROXY_ADDRESSES: '127.0.0.1', PDFSHARE_AUTH_PROXY_SECRET: secret },
  })
  try {
    const withoutSecret = await signIn(server.url, { 'remote-user': 'petra' })
    expect(withoutSecret.status).toBe(401)
    expect((await withoutSecret.json()).error).toContain('did not come from the authenticating proxy')
    const wrongSecret = await signIn(server.url, { 'remote-user': 'petra', 'pdfshare-proxy-secret': `${secret}!` })
    expect(wrongSecret.status).toBe(401)
    const fromProxy = await signIn(server.url, { 'remote-user': 'petra', 'pdfshare-proxy-secret': secret })
    expect(fromProxy.status).toBe(200)
    expect((await fromProxy.json()).data.user.name).toBe('petra')
  } finally {
    await server.stop()
  }
})

test('without PDFSHARE_AUTH_PROXY_HEADER the header means nothing: 404', async () => {
  const server = await startServer(['--data', dataDir])
  try {
    const answer = await signIn(server.url, { 'remote-user': 'olga' })
    expect(answer.status).toBe(404)
    expect(await (await fetch(`${server.url}/app`)).text()).toContain('data-auth-proxy="false"')
  } finally {
    await server.stop()
  }
})
