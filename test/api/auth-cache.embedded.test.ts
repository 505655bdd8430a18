import { describe, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { FOREIGN_CHECK_MS } from '../../src/db/hot-sql'
import { startTestApp } from '../support/harness'

// The embedded database only: another process writing to the SQLite file through its own connection. Such a
// commit is seen through SQLite's data_version, read at most every FOREIGN_CHECK_MS (docs/development.md, Performance): a
// real CLI process takes far longer than that to exit. (Several instances on one database, on both backends:
// auth-cache.test.ts.)
const server = await startTestApp()
const status = async (token: string) => (await server.call('GET', '/api/files', { token })).status

describe('remembered tokens are refused as promptly as without a cache: another process on the SQLite file', () => {
  test('revoked by another process (its own connection to the file): refused within FOREIGN_CHECK_MS', async () => {
    const user = await server.user()
    expect(await status(user.token)).toBe(200)
    const other = createClient({ url: server.config.databaseUrl })
    try {
      await other.execute({ sql: 'UPDATE tokens SET revoked_at = ? WHERE id = ?', args: [Date.now(), user.tokenId] })
    } finally {
      other.close()
    }
    await Bun.sleep(FOREIGN_CHECK_MS + 1)
    expect(await status(user.token)).toBe(401)
  })

  test('the user removed by another process: refused within FOREIGN_CHECK_MS', async () => {
    const user = await server.user()
    expect(await status(user.token)).toBe(200)
    const other = createClient({ url: server.config.databaseUrl })
    try {
      await other.execute('PRAGMA foreign_keys = ON')
      await other.execute({ sql: 'DELETE FROM users WHERE id = ?', args: [user.id] })
    } finally {
      other.close()
    }
    await Bun.sleep(FOREIGN_CHECK_MS + 1)
    expect(await status(user.token)).toBe(401)
  })
})
