import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { bearer } from '../support/bearer'
import { run, PDFSHARE_PROGRAM, startServer } from '../../scripts/support/process'

const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-cli-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const cli = (...args: string[]) => run([...args, '--data', dataDir])

describe('CLI', () => {
  test('first use creates the database, the folders and a 0600 secret', async () => {
    const result = await cli('user', 'list')
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('no users yet')
    expect(statSync(join(dataDir, 'pdfshare.db')).isFile()).toBe(true)
    for (const dir of ['blobs', 'tmp', 'previews']) expect(statSync(join(dataDir, dir)).isDirectory()).toBe(true)
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600)
  })

  test('user add, duplicate refused, list, quota', async () => {
    expect((await cli('user', 'add', 'alice')).code).toBe(0)
    const duplicate = await cli('user', 'add', 'alice')
    expect(duplicate.code).toBe(1)
    expect(duplicate.stderr).toContain('already exists')
    expect((await cli('user', 'add', 'bad name!')).code).toBe(1)
    const quota = await cli('user', 'quota', 'alice', '--max-storage', '5GB', '--max-files', '1000')
    expect(quota.code).toBe(0)
    expect(quota.stdout).toContain('max storage 5 GB, max files 1000')
    const list = await cli('user', 'list')
    expect(list.stdout).toMatch(/alice\s+0\s+0 bytes\s+5 GB\s+1000/)
    expect((await cli('user', 'quota', 'alice', '--max-storage', 'unlimited')).stdout).toContain('max storage unlimited, max files 1000')
    expect((await cli('user', 'quota', 'alice', '--max-files', 'lots')).code).toBe(2)
  })

  test('passwords: user add --password-stdin and user passwd, checked before anything is stored, argon2id', async () => {
    const withPassword = (stdin: string, ...args: string[]) => run([...args, '--data', dataDir], { stdin })
    const tooShort = await withPassword('short\n', 'user', 'add', 'pat', '--password-stdin')
    expect(tooShort.code).toBe(1)
    expect(tooShort.stderr).toContain('at least 8 characters; nothing was changed')
    expect((await cli('user', 'list')).stdout).not.toContain('pat')
    const added = await withPassword('first password\n', 'user', 'add', 'pat', '--password-stdin')
    expect(added.code).toBe(0)
    expect(added.stdout).toContain('created user pat with a password')
    expect((await withPassword('second password\nignored line\n', 'user', 'passwd', 'pat', '--password-stdin')).code).toBe(0)
    // Without a terminal and without --password-stdin there is nothing to read a password from.
    const noTerminal = await cli('user', 'passwd', 'pat')
    expect(noTerminal.code).toBe(2)
    expect(noTerminal.stderr).toContain('--password-stdin')
    expect((await withPassword('whatever it is\n', 'user', 'passwd', 'nobody', '--password-stdin')).code).toBe(1)
    // Stored as an argon2id PHC string, and only the second password matches.
    const db = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
    try {
      const hash = String((await db.execute("SELECT password_hash FROM users WHERE name = 'pat'")).rows[0]![0])
      expect(hash).toStartWith('$argon2id$')
      expect(hash).toContain('$m=19456,t=2,') // OWASP's minimum, not Bun's 64 MiB default
      expect(await Bun.password.verify('second password', hash)).toBe(true)
      expect(await Bun.password.verify('first password', hash)).toBe(false)
    } finally {
      db.close()
    }
  })

  test('on a terminal the password is typed twice without being shown; two different ones change nothing', async () => {
    // `script` (util-linux, always on Debian) gives the command a real terminal and types what stdin holds.
    const onTerminal = (keys: string, ...args: string[]) =>
      run(['-qec', [...PDFSHARE_PROGRAM, ...args, '--data', dataDir].join(' '), '/dev/null'], { program: ['script'], stdin: keys })
    expect((await cli('user', 'add', 'terry')).code).toBe(0)
    const typed = await onTerminal('typed password\rtyped password\r', 'user', 'passwd', 'terry')
    expect(typed.code).toBe(0)
    expect(typed.stdout).toContain('New password:')
    expect(typed.stdout).toContain('Repeat it:')
    const differ = await onTerminal('typed password\rother password\r', 'user', 'passwd', 'terry')
    expect(differ.code).toBe(1)
    expect(differ.stdout).toContain('the two passwords differ; nothing was changed')
    const db = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
    try {
      const hash = String((await db.execute("SELECT password_hash FROM users WHERE name = 'terry'")).rows[0]![0])
      expect(await Bun.password.verify('typed password', hash)).toBe(true)
    } finally {
      db.close()
    }
  })

  test('token issue prints only the JWT on stdout; list and revoke', async () => {
    const issued = await cli('token', 'issue', 'alice', '--label', 'laptop', '--ttl', '12h')
    expect(issued.code).toBe(0)
    expect(issued.stdout).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/)
    const jwt = issued.stdout.trim()
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString())
    expect(claims.exp - claims.iat).toBe(12 * 3600)
    const list = await cli('token', 'list', 'alice')
    expect(list.stdout).toContain(claims.jti)
    expect(list.stdout).toContain('laptop')
    expect(list.stdout).toContain('active')
    expect((await cli('token', 'revoke', claims.jti)).code).toBe(0)
    expect((await cli('token', 'list')).stdout).toContain('revoked')
    expect((await cli('token', 'issue', 'nobody')).code).toBe(1)
    expect((await cli('token', 'issue', 'alice', '--ttl', 'forever')).code).toBe(2)
  })

  test('the first user is an admin, others only with --admin; user list says who', async () => {
    // alice was the first user of this data dir (the test above).
    const second = await cli('user', 'add', 'carl')
    expect(second.stdout).toBe('created user carl\n')
    const admin = await cli('user', 'add', 'dana', '--admin')
    expect(admin.stdout).toBe('created user dana, an admin\n')
    const list = (await cli('user', 'list')).stdout
    expect(list).toMatch(/^alice\s.*\sadmin\s+off$/m)
    expect(list).toMatch(/^carl\s.*\suser\s+off$/m)
    expect(list).toMatch(/^dana\s.*\sadmin\s+off$/m)
  })

  test('user 2fa reset: turns off a user’s two-factor sign-in, says when there was none, and is in the audit log', async () => {
    const db = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
    try {
      await db.execute("UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXP', totp_enabled_at = 1 WHERE name = 'carl'")
      expect((await cli('user', 'list')).stdout).toMatch(/^carl\s.*\suser\s+on$/m)
      const reset = await cli('user', '2fa', 'reset', 'carl')
      expect(reset.code, reset.stderr).toBe(0)
      expect(reset.stdout).toContain('two-factor sign-in of carl reset')
      expect((await cli('user', 'list')).stdout).toMatch(/^carl\s.*\suser\s+off$/m)
      const row = (await db.execute("SELECT totp_secret, totp_enabled_at FROM users WHERE name = 'carl'")).rows[0]!
      expect([row[0], row[1]]).toEqual([null, null])
      expect((await cli('user', '2fa', 'reset', 'carl')).stdout).toContain(
        'carl has no two-factor sign-in and no passkey; nothing to reset',
      )
      const audited = await db.execute("SELECT detail FROM audit_events WHERE action = 'two_factor.reset'")
      expect(audited.rows.map((one) => JSON.parse(String(one[0])))).toEqual([{ name: 'carl', passkeysRemoved: 0 }])
    } finally {
      db.close()
    }
    expect((await cli('user', '2fa')).code).toBe(2)
    expect((await cli('user', '2fa', 'reset')).code).toBe(2)
    expect((await cli('user', '2fa', 'reset', 'nobody')).code).toBe(1)
  })

  test('token issue --scope: a token limited to those scopes, listed with them; a bad scope is exit code 2', async () => {
    const issued = await cli('token', 'issue', 'alice', '--label', 'ci', '--scope', 'files:write, links:write')
    expect(issued.code, issued.stderr).toBe(0)
    expect(issued.stderr).toContain('scopes: files:write,links:write')
    const jti = JSON.parse(Buffer.from(issued.stdout.trim().split('.')[1]!, 'base64url').toString()).jti
    expect((await cli('token', 'list', 'alice')).stdout).toMatch(new RegExp(`^${jti}\\s.*\\sfiles:write,links:write\\s+active$`, 'm'))
    expect((await cli('token', 'issue', 'alice')).stderr).toContain('scopes: all')
    const bad = await cli('token', 'issue', 'alice', '--scope', 'files:read,files:everything')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('unknown scope "files:everything"; the scopes are files:read, files:write')
    expect(bad.stdout).toBe('')
  })

  test('token issue --team: a team token of a team the user is in, by name or id; another team is refused', async () => {
    // No command makes teams (the API does): the rows as POST /api/teams writes them.
    const db = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
    try {
      const alice = String((await db.execute("SELECT id FROM users WHERE name = 'alice'")).rows[0]![0])
      await db.batch([
        "INSERT INTO owners (id, kind) VALUES ('teamopsteamopsteamops1', 'team'), ('teamelseteamelseteame1', 'team')",
        "INSERT INTO teams (id, name, created_at, updated_at) VALUES ('teamopsteamopsteamops1', 'Ops', 1, 1), ('teamelseteamelseteame1', 'Else', 1, 1)",
        {
          sql: "INSERT INTO team_members (team_id, user_id, role, created_at) VALUES ('teamopsteamopsteamops1', ?, 'editor', 1)",
          args: [alice],
        },
      ])
      for (const team of ['Ops', 'teamopsteamopsteamops1']) {
        const issued = await cli('token', 'issue', 'alice', '--team', team)
        expect(issued.code, issued.stderr).toBe(0)
        expect(issued.stderr).toContain('for team teamopsteamopsteamops1')
        const jti = JSON.parse(Buffer.from(issued.stdout.trim().split('.')[1]!, 'base64url').toString()).jti
        expect((await db.execute({ sql: 'SELECT team_id FROM tokens WHERE id = ?', args: [jti] })).rows[0]![0]).toBe(
          'teamopsteamopsteamops1',
        )
      }
      for (const team of ['Else', 'teamelseteamelseteame1', 'nothing']) {
        const refused = await cli('token', 'issue', 'alice', '--team', team)
        expect(refused.code).toBe(1)
        expect(refused.stderr).toContain('Team not found')
        expect(refused.stdout).toBe('')
      }
    } finally {
      db.close()
    }
  })

  test('token issue refuses a token past PDFSHARE_MAX_TOKENS_PER_USER with the reason, exit code 1', async () => {
    const env = { PDFSHARE_MAX_TOKENS_PER_USER: '2' }
    expect((await run(['user', 'add', 'capped', '--data', dataDir], { env })).code).toBe(0)
    for (let i = 0; i < 2; i++) expect((await run(['token', 'issue', 'capped', '--data', dataDir], { env })).code).toBe(0)
    const refused = await run(['token', 'issue', 'capped', '--data', dataDir], { env })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain('at most 2')
    expect(refused.stderr).toContain('token revoke')
  })

  test('what the CLI does to users and tokens is in the audit log, by "pdfshare CLI", without secrets', async () => {
    const db = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
    try {
      const rows = (
        await db.execute("SELECT action, actor_id, actor_name, via, address, detail FROM audit_events WHERE via = 'cli' ORDER BY seq")
      ).rows
      const actions = rows.map((row) => String(row[0]))
      for (const action of ['user.added', 'user.password_set', 'user.quota_set', 'token.issued', 'token.revoked'])
        expect(actions).toContain(action)
      for (const row of rows) expect([row[1], row[2], row[4]]).toEqual([null, 'pdfshare CLI', null])
      const everything = JSON.stringify(rows)
      expect(everything).not.toContain('second password')
      expect(everything).not.toContain('first password')
      expect(JSON.parse(String(rows[actions.indexOf('user.quota_set')]![5]))).toEqual({
        name: 'alice',
        maxBytes: 5 * 1024 ** 3,
        maxFiles: 1000,
      })
    } finally {
      db.close()
    }
  })

  test('user remove refuses to drop files silently', async () => {
    expect((await cli('user', 'add', 'temp')).code).toBe(0)
    expect((await cli('user', 'remove', 'temp')).code).toBe(0)
    expect((await cli('user', 'remove', 'temp')).code).toBe(1)
  })

  const usageErrors: [string, string[], Record<string, string>, RegExp][] = [
    ['unknown command', ['frobnicate'], {}, /unknown command "frobnicate"/],
    ['unknown flag', ['serve', '--prot', '1'], {}, /unknown flag "--prot" \(see --help\)/],
    ['flag of another command', ['user', 'list', '--ttl', '1d'], {}, /user list does not take --ttl/],
    ['bad port flag', ['serve', '--port', 'abc'], {}, /invalid --port "abc"/],
    ['bad port env', ['serve'], { PDFSHARE_PORT: 'x' }, /invalid PDFSHARE_PORT "x"/],
    ['short secret', ['user', 'list'], { PDFSHARE_JWT_SECRET: 'abc' }, /at least 32 bytes/],
  ]
  for (const [name, args, env, message] of usageErrors) {
    test(`${name} → one clear line on stderr, exit code 2`, async () => {
      const result = await run([...args, '--data', dataDir], { env })
      expect(result.code).toBe(2)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(message)
      expect(result.stdout).toBe('')
    })
  }

  test('--help and --version', async () => {
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('token issue NAME')
    expect((await run(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })
})

describe('serve', () => {
  test('on an empty data dir: tells how to get a token, serves, and a CLI token works against it', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'pdfshare-serve-'))
    const server = await startServer(['--data', fresh])
    try {
      expect(server.stderr()).toContain('No users yet')
      expect(server.stderr()).toContain(`user add alice --data ${fresh}`)
      expect(server.stderr()).toContain(`token issue alice --data ${fresh}`)
      // With --port 0, share links name the port actually chosen.
      expect(server.stderr()).toContain(`share links: http://localhost:${new URL(server.url).port}`)
      // The CLI works while the server runs on the same data dir.
      expect((await run(['user', 'add', 'alice', '--data', fresh])).code).toBe(0)
      const token = (await run(['token', 'issue', 'alice', '--data', fresh])).stdout.trim()
      const response = await fetch(`${server.url}/api/me`, { headers: bearer(token) })
      expect(response.status).toBe(200)
      expect((await response.json()).data.name).toBe('alice')
      // A second server on the same data dir is refused.
      const second = await run(['serve', '--port', '0', '--data', fresh])
      expect(second.code).toBe(1)
      expect(second.stderr).toContain('another pdfshare server')
    } finally {
      expect(await server.stop()).toBe(0)
      rmSync(fresh, { recursive: true, force: true })
    }
  })
})
