import { describe, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { join } from 'node:path'
import { run } from '../../scripts/support/process'
import { parseCommandLine } from '../../src/cli/args'
import { randomId } from '../../src/lib/ids'
import { json, startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'

// One id in 64 used to begin with `-`, and the CLI then read it as a flag. New ids never do;
// ids made before (still in databases) are given to the CLI as they are, or after `--`.
describe('ids that begin with "-"', () => {
  test('new ids never begin with "-" (20,000 draws: about 310 would have)', () => {
    const ids = Array.from({ length: 20_000 }, () => randomId())
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([])
    expect(ids.every((id) => /^[A-Za-z0-9_-]{22}$/.test(id))).toBe(true)
    // Still uniform over the other 63 first characters: each appears (≈ 317 times each).
    expect(new Set(ids.map((id) => id[0])).size).toBe(63)
  })

  test('the command line takes a 22-character id that begins with "-" as the id, before or after --', () => {
    const id = '-Tq0B5mZ1yWc3v9Xb2Lk7A'
    expect(parseCommandLine(['token', 'revoke', id]).positionals).toEqual(['token', 'revoke', id])
    expect(parseCommandLine(['token', 'revoke', '--data', '/d', id]).positionals).toEqual(['token', 'revoke', id])
    expect(parseCommandLine(['token', 'revoke', '--', id]).positionals).toEqual(['token', 'revoke', id])
    expect(parseCommandLine(['link', 'disable', '--', '-x']).positionals).toEqual(['link', 'disable', '-x'])
  })

  test('an unknown flag says how to pass an id or name that begins with "-" (exit code 2)', () => {
    let failure: { message: string; exitCode: number } | undefined
    try {
      parseCommandLine(['user', 'remove', '--delete-files', '-bob'])
    } catch (error) {
      failure = error as typeof failure
    }
    expect(failure?.exitCode).toBe(2)
    expect(failure?.message).toBe(
      'unknown flag "-bob" (see --help); if it is an id or a name that begins with "-", put -- before it: pdfshare user remove -- -bob',
    )
  })
})

describe('every CLI command that takes an id, with ids that begin with "-" on purpose', async () => {
  const server = await startTestApp()
  const cli = (...args: string[]) => run(['--data', server.dataDir, ...args])
  const alice = await server.user('alice')
  const upload = await uploadPdf(server, alice)
  const created = await json(
    await server.call('POST', `/api/files/${upload.id}/links`, {
      token: alice.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'dashed' }),
    }),
  )
  // Old databases hold such ids: give this file, its links and the token ids that begin with "-".
  const dashed = (id: string) => `-${id.slice(1)}`
  const fileId = dashed(upload.id)
  const linkId = dashed(created.data.id)
  const tokenId = dashed(alice.tokenId)
  const db = createClient({ url: `file:${join(server.dataDir, 'pdfshare.db')}` })
  // The file's id and its links' file_id change in one transaction, the foreign key checked at its end.
  await db.executeMultiple(`BEGIN; PRAGMA defer_foreign_keys = ON;
    UPDATE tokens SET id = '${tokenId}' WHERE id = '${alice.tokenId}';
    UPDATE links SET id = '${linkId}' WHERE id = '${created.data.id}';
    UPDATE links SET file_id = '${fileId}' WHERE file_id = '${upload.id}';
    UPDATE files SET id = '${fileId}' WHERE id = '${upload.id}';
    COMMIT;`)
  db.close()

  test('token revoke ID', async () => {
    const revoked = await cli('token', 'revoke', tokenId)
    expect(revoked.code, revoked.stderr).toBe(0)
    const listed = await cli('token', 'list', 'alice')
    expect(listed.stdout).toMatch(new RegExp(`^${tokenId}\\s.*\\srevoked$`, 'm'))
  })

  test('link list FILE_ID, link disable and enable LINK_ID, with and without --', async () => {
    const listed = await cli('link', 'list', fileId)
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toContain(linkId)
    const disabled = await cli('link', 'disable', linkId)
    expect(disabled.code, disabled.stderr).toBe(0)
    expect(disabled.stdout).toContain(`disabled link ${linkId}`)
    const enabled = await cli('link', 'enable', '--', linkId)
    expect(enabled.code, enabled.stderr).toBe(0)
    expect(enabled.stdout).toContain(`enabled link ${linkId}`)
  })

  test('an id of that shape that does not exist is an unknown id (exit code 1), not a flag', async () => {
    const missing = await cli('link', 'disable', '-AAAAAAAAAAAAAAAAAAAAAA'.slice(0, 22))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('no link with id "-AAAAAAAAAAAAAAAAAAAAA"')
  })
})
