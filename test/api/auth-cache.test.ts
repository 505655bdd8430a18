import { describe, expect, setSystemTime, test } from 'bun:test'
import { SignJWT } from 'jose'
import { FOREIGN_CHECK_MS } from '../../src/db/hot-sql'
import { revokeToken } from '../../src/core/accounts/tokens/revoke-token'
import { removeUser } from '../../src/core/accounts/users/users'
import { startTestApp } from '../support/harness'

// The authenticator remembers verified tokens and their callers; none of that may delay a refusal.
const server = await startTestApp()
const status = async (token: string) => (await server.call('GET', '/api/files', { token })).status
/** A second instance on the same database and PDFs. */
const other = await startTestApp({}, { sameInstallAs: server })
const otherStatus = async (token: string) => (await other.call('GET', '/api/files', { token })).status

describe('remembered tokens are refused as promptly as without a cache', () => {
  test('revoked by the CLI while the server runs: refused on the next request', async () => {
    const user = await server.user()
    expect(await status(user.token)).toBe(200)
    const cli = Bun.spawnSync(['bun', 'src/main.ts', 'token', 'revoke', user.tokenId, '--data', server.dataDir], {
      cwd: `${import.meta.dir}/../..`,
      env: { ...process.env, ...server.backendEnv, PDFSHARE_DATABASE_URL: server.config.databaseUrl },
    })
    expect(cli.exitCode, `the CLI said: ${cli.stderr.toString()}`).toBe(0)
    expect(await status(user.token)).toBe(401)
  })

  test('revoked through the API process’s own connection: refused on the next request', async () => {
    const user = await server.user()
    for (let i = 0; i < 3; i++) expect(await status(user.token)).toBe(200)
    await revokeToken(server.ctx, { tokenIdOrJwt: user.tokenId })
    expect(await status(user.token)).toBe(401)
  })

  // Several instances on one database (a scaled-out install, or the embedded file opened twice): a commit
  // through one is seen by the other within FOREIGN_CHECK_MS (the embedded file's data_version; on PostgreSQL
  // nothing is remembered at all). The same through another process's own connection to the SQLite file:
  // auth-cache.embedded.test.ts.
  test('revoked through another instance on the same database: refused within FOREIGN_CHECK_MS', async () => {
    const user = await server.user()
    expect(await status(user.token)).toBe(200)
    expect(await otherStatus(user.token)).toBe(200)
    await revokeToken(other.ctx, { tokenIdOrJwt: user.tokenId })
    expect(await otherStatus(user.token)).toBe(401)
    await Bun.sleep(FOREIGN_CHECK_MS + 1)
    expect(await status(user.token)).toBe(401)
  })

  test('the user removed through another instance: refused within FOREIGN_CHECK_MS', async () => {
    const user = await server.user()
    expect(await status(user.token)).toBe(200)
    await removeUser(other.ctx, { name: user.name, deleteFiles: false })
    await Bun.sleep(FOREIGN_CHECK_MS + 1)
    expect(await status(user.token)).toBe(401)
  })

  test('a remembered token is refused once it expires (beyond the 30 s leeway)', async () => {
    const user = await server.user(undefined, { ttlSeconds: 60 })
    // In process: setSystemTime moves this process's clock only.
    const status = async (token: string) => (await server.callInProcess('GET', '/api/files', { token })).status
    expect(await status(user.token)).toBe(200)
    try {
      setSystemTime(new Date(Date.now() + 80_000))
      expect(await status(user.token)).toBe(200) // 20 s past exp: inside the leeway
      setSystemTime(new Date(Date.now() + 20_000))
      expect(await status(user.token)).toBe(401)
    } finally {
      setSystemTime()
    }
  })

  test('a valid token with one character changed is checked afresh and refused', async () => {
    const user = await server.user()
    expect(await status(user.token)).toBe(200)
    const [header, payload, signature] = user.token.split('.') as [string, string, string]
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`
    expect(await status(flipped)).toBe(401)
    expect(await status(user.token)).toBe(200)
  })

  test('many distinct valid tokens: the cache stays bounded and every one still works', async () => {
    const user = await server.user()
    // Same claims, different iat: 1,100 distinct strings for one token row.
    const tokens = await Promise.all(
      Array.from({ length: 1100 }, (_, i) =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setIssuer('pdfshare')
          .setSubject(user.id)
          .setJti(user.tokenId)
          .setIssuedAt(Math.floor(Date.now() / 1000) - i)
          .setExpirationTime('1h')
          .sign(server.ctx.signingKey),
      ),
    )
    for (const token of tokens) expect(await status(token)).toBe(200)
    expect(await status(tokens[0]!)).toBe(200) // forgotten first, verified again
  })
})
