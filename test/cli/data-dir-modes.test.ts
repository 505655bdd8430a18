import { afterAll, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { run, PDFSHARE_PROGRAM, startServer } from '../../scripts/support/process'
import { uploadPdfTo } from '../support/uploads'

const root = mkdtempSync(join(tmpdir(), 'pdfshare-modes-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

// What a login shell, cron or systemd usually hands a process: files 0644, folders 0755.
const WITH_UMASK_022 = ['sh', '-c', 'umask 022; exec "$@"', 'sh', ...PDFSHARE_PROGRAM]
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

test('a data dir that exists with mode 0755 is tightened to 0700 (said once on stderr); the database, its WAL and the secret are 0600', async () => {
  const dataDir = join(root, 'volume')
  mkdirSync(dataDir)
  chmodSync(dataDir, 0o755) // mkdir -p, a Docker volume, systemd's StateDirectory

  const added = await run(['user', 'add', 'alice', '--data', dataDir], { program: WITH_UMASK_022 })
  expect(added.code).toBe(0)
  expect(added.stderr).toContain(`the data dir ${dataDir} was open to other users (mode 0755); changed it to 0700`)
  expect(modeOf(dataDir)).toBe('700')
  expect(modeOf(join(dataDir, 'pdfshare.db'))).toBe('600')
  expect(modeOf(join(dataDir, 'jwt-secret'))).toBe('600')
  const token = (await run(['token', 'issue', 'alice', '--data', dataDir], { program: WITH_UMASK_022 })).stdout.trim()

  const server = await startServer(['--data', dataDir], { program: WITH_UMASK_022 })
  try {
    expect(server.stderr()).not.toContain('open to other users') // already tightened
    await uploadPdfTo(server.url, token)
    // While the server runs, the WAL and shared-memory files exist; everything written is the owner's only.
    for (const name of ['pdfshare.db', 'pdfshare.db-wal', 'pdfshare.db-shm'])
      expect(`${name} ${modeOf(join(dataDir, name))}`).toBe(`${name} 600`)
    const blobs = readdirSync(join(dataDir, 'blobs'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
    expect(blobs).toHaveLength(1)
    for (const blob of blobs) expect(modeOf(join(blob.parentPath, blob.name))).toBe('600')
  } finally {
    await server.stop()
  }
})

test('database files and the secret left readable by an earlier version are made 0600 when they are opened', async () => {
  const dataDir = join(root, 'upgraded')
  expect((await run(['user', 'add', 'bob', '--data', dataDir])).code).toBe(0)
  for (const name of ['pdfshare.db', 'jwt-secret']) chmodSync(join(dataDir, name), 0o644)

  const listed = await run(['user', 'list', '--data', dataDir], { program: WITH_UMASK_022 })
  expect(listed.code).toBe(0)
  expect(modeOf(join(dataDir, 'pdfshare.db'))).toBe('600')
  expect(modeOf(join(dataDir, 'jwt-secret'))).toBe('600')
})

test('what pdfshare writes under a umask of 022 is still its own: a backup (the database copy holds password hashes) is 0600/0700', async () => {
  const dataDir = join(root, 'backed-up')
  expect((await run(['user', 'add', 'carol', '--data', dataDir], { program: WITH_UMASK_022 })).code).toBe(0)
  const backupDir = join(root, 'backup')
  expect((await run(['backup', backupDir, '--data', dataDir], { program: WITH_UMASK_022 })).code).toBe(0)
  const entries = readdirSync(backupDir, { recursive: true, withFileTypes: true })
  expect(entries.map((entry) => entry.name)).toContain('pdfshare.db')
  expect(modeOf(backupDir)).toBe('700')
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name)
    expect(`${entry.name} ${modeOf(path)}`).toBe(`${entry.name} ${entry.isDirectory() ? '700' : '600'}`)
  }
})
