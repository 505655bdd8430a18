import { afterAll, describe, expect, test } from 'bun:test'
import {
  appendFileSync,
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { createClient } from '@libsql/client'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { bearer } from '../support/bearer'
import { form, startTestApp } from '../support/harness'
import { makePdf } from '../../scripts/support/pdf'
import { freshPostgres } from '../../scripts/support/postgres'
import { run, startServer } from '../../scripts/support/process'
import { uploadPdf, uploadPdfTo } from '../support/uploads'
import { backupTo } from '../../src/maintenance/backup'
import type { BlobStore } from '../../src/storage/blob-store'

const root = mkdtempSync(join(tmpdir(), 'pdfshare-ops-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let counter = 0
const freshDir = (name: string) => join(root, `${name}-${++counter}`)

/** A data dir with a user, a token, and `count` uploaded files (through a short-lived server). */
async function populated(count: number) {
  const dataDir = freshDir('data')
  await run(['user', 'add', 'alice', '--data', dataDir])
  const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
  const server = await startServer(['--data', dataDir], { env: { PDFSHARE_MAX_UPLOADS_PER_USER: '64' } })
  const files: { id: string; sha256: string }[] = []
  for (let i = 0; i < count; i++) files.push(await uploadPdfTo(server.url, token, makePdf({ text: () => `file ${i}` })))
  return { dataDir, token, server, files }
}
const blobPaths = (dataDir: string) =>
  readdirSync(join(dataDir, 'blobs'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))

describe('pdfshare verify', () => {
  test('a healthy store: exit 0; damaged, truncated, missing and unreferenced blobs: reported, exit 1; --repair removes only unreferenced blobs', async () => {
    const { dataDir, server } = await populated(4)
    await server.stop()
    const ok = await run(['verify', '--data', dataDir])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('checked 4 file(s)')
    expect(ok.stdout).toContain('ok: every file is present')

    const [flipped, truncated, missing] = blobPaths(dataDir)
    const bytes = readFileSync(flipped!)
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff
    writeFileSync(flipped!, bytes)
    truncateSync(truncated!, 100)
    rmSync(missing!)
    mkdirSync(join(dataDir, 'blobs', 'zz'), { recursive: true })
    writeFileSync(join(dataDir, 'blobs', 'zz', 'zzUnreferencedBlob0001.pdf'), '%PDF-1.7 orphan')

    const bad = await run(['verify', '--data', dataDir])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain('SHA-256 is')
    expect(bad.stdout).toContain('100 bytes on disk')
    expect(bad.stdout).toContain('missing from the blob store')
    expect(bad.stdout).toContain('unreferenced: blob zzUnreferencedBlob0001')
    expect(bad.stdout).toContain('3 damaged file(s), 1 unreferenced blob(s)')

    const repaired = await run(['verify', '--repair', '--data', dataDir])
    expect(repaired.code).toBe(1) // the damaged files remain, reported, never deleted
    expect(existsSync(join(dataDir, 'blobs', 'zz', 'zzUnreferencedBlob0001.pdf'))).toBe(false)
    expect(blobPaths(dataDir)).toHaveLength(3)
  })

  test('--repair refuses while a server runs on the data dir', async () => {
    const { dataDir, server } = await populated(1)
    try {
      const refused = await run(['verify', '--repair', '--data', dataDir])
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('stop it before verify --repair')
      expect((await run(['verify', '--data', dataDir])).code).toBe(0) // checking alone is fine
    } finally {
      await server.stop()
    }
  })
})

describe('pdfshare backup and restore', () => {
  test('a backup taken while uploads, replacements and deletes run restores to a data dir that verifies', async () => {
    const { dataDir, token, server, files } = await populated(10)
    const auth = bearer(token)
    let writing = true
    const churn = (async () => {
      for (let i = 0; writing; i++) {
        const target = files[i % files.length]!
        await Promise.all([
          fetch(`${server.url}/api/files/upload`, {
            method: 'POST',
            headers: auth,
            body: form({ bytes: makePdf({ text: () => `new ${i}` }) }),
          }),
          fetch(`${server.url}/api/files/${target.id}`, {
            method: 'PUT',
            headers: auth,
            body: form({ bytes: makePdf({ text: () => `replaced ${i}` }) }),
          }),
          i % 3 === 0 ? fetch(`${server.url}/api/files/${files[(i + 5) % files.length]!.id}`, { method: 'DELETE', headers: auth }) : null,
        ])
      }
    })()
    await Bun.sleep(150)
    const backupDir = freshDir('backup')
    const backup = await run(['backup', backupDir, '--data', dataDir])
    writing = false
    await churn
    await server.stop()
    expect(backup.code).toBe(0)
    expect(backup.stdout).toMatch(/backed up \d+ file\(s\)/)
    const manifest = JSON.parse(readFileSync(join(backupDir, 'backup.json'), 'utf8'))
    expect(manifest).toMatchObject({ format: 1 })

    const restoredDir = freshDir('restored')
    const restored = await run(['restore', backupDir, '--data', restoredDir])
    expect(restored.code).toBe(0)
    expect(restored.stdout).toContain(`restored ${manifest.files} file(s)`)
    const verified = await run(['verify', '--data', restoredDir])
    expect(verified.stdout).toContain(`checked ${manifest.files} file(s)`)
    expect(verified.code).toBe(0)

    // The restored server accepts the old token (the signing secret came along) and serves the files.
    const again = await startServer(['--data', restoredDir])
    try {
      const list = await (await fetch(`${again.url}/api/files?limit=100`, { headers: auth })).json()
      expect(list.data).toHaveLength(manifest.files)
      for (const file of list.data) {
        const bytes = new Uint8Array(await (await fetch(`${again.url}/api/files/${file.id}/content`, { headers: auth })).arrayBuffer())
        expect(new Bun.CryptoHasher('sha256').update(bytes).digest('hex')).toBe(file.sha256)
      }
    } finally {
      await again.stop()
    }
  })

  test('restore refuses a non-empty data dir and a damaged backup, and leaves nothing behind', async () => {
    const { dataDir, server } = await populated(2)
    const backupDir = freshDir('backup')
    expect((await run(['backup', backupDir, '--data', dataDir])).code).toBe(0)
    await server.stop()
    expect((await run(['backup', backupDir, '--data', dataDir])).stderr).toContain('is not empty')

    const notEmpty = await run(['restore', backupDir, '--data', dataDir])
    expect(notEmpty.code).toBe(1)
    expect(notEmpty.stderr).toContain('is not empty')

    appendFileSync(blobPaths(backupDir)[0]!, 'x')
    const target = freshDir('restored')
    const damaged = await run(['restore', backupDir, '--data', target])
    expect(damaged.code).toBe(1)
    expect(damaged.stderr).toContain('the backup is damaged')
    expect(existsSync(target)).toBe(false)
    expect(readdirSync(root).filter((name) => name.includes('restoring'))).toEqual([])

    expect((await run(['restore', freshDir('nothing'), '--data', freshDir('x')])).stderr).toContain('not a complete pdfshare backup')
  })

  test('restore copies regular files only (a symlinked secret, database or PDF is refused) and names every bad PDF in one message', async () => {
    const { dataDir, server } = await populated(4)
    const backupDir = freshDir('backup')
    expect((await run(['backup', backupDir, '--data', dataDir])).code).toBe(0)
    await server.stop()
    const restoreInto = async () => {
      const target = freshDir('restored')
      const result = await run(['restore', backupDir, '--data', target])
      expect(existsSync(target)).toBe(false)
      expect(readdirSync(root).filter((name) => name.includes('restoring'))).toEqual([])
      return result
    }
    const swapForSymlink = (path: string, outside: string) => {
      copyFileSync(path, outside)
      rmSync(path)
      symlinkSync(outside, path)
    }

    // A secret that only root may read, linked from a backup someone else prepared: never copied in.
    const secret = join(backupDir, 'jwt-secret')
    swapForSymlink(secret, join(root, `root-only-${++counter}`))
    const linkedSecret = await restoreInto()
    expect(linkedSecret.code).toBe(1)
    expect(linkedSecret.stderr).toContain('jwt-secret is not a regular file (a symbolic link)')
    rmSync(secret)
    writeFileSync(secret, 's'.repeat(64))

    const database = join(backupDir, 'pdfshare.db')
    const databaseCopy = join(root, `db-${++counter}`)
    swapForSymlink(database, databaseCopy)
    const linkedDatabase = await restoreInto()
    expect(linkedDatabase.code).toBe(1)
    expect(linkedDatabase.stderr).toContain('pdfshare.db is not a regular file (a symbolic link)')
    rmSync(database)
    copyFileSync(databaseCopy, database)

    // Three bad PDFs of four: a symlink to an exact copy (right size and SHA-256), one too long, one missing.
    const client = createClient({ url: `file:${database}` })
    const fileOfBlob = new Map(
      (await client.execute('SELECT id, blob_key FROM files')).rows.map((row) => [`${row.blob_key}.pdf`, String(row.id)]),
    )
    client.close()
    const [linked, grown, missing] = blobPaths(backupDir)
    swapForSymlink(linked!, join(root, `pdf-${++counter}`))
    appendFileSync(grown!, 'x')
    rmSync(missing!)
    const damaged = await restoreInto()
    expect(damaged.code).toBe(1)
    expect(damaged.stderr.trim().split('\n')).toHaveLength(1)
    expect(damaged.stderr).toContain('the backup is damaged: 3 of 4 PDF(s)')
    const idOf = (path: string) => fileOfBlob.get(path.split('/').pop()!)!
    expect(damaged.stderr).toContain(`file ${idOf(linked!)}: its PDF is not a regular file (a symbolic link)`)
    expect(damaged.stderr).toMatch(new RegExp(`file ${idOf(grown!)}: its PDF has (\\d+) bytes, \\d+ recorded`))
    expect(damaged.stderr).toContain(`file ${idOf(missing!)}: its PDF is missing`)
  })
})

describe('backup into a folder someone else could have prepared', () => {
  test('only a new folder or an empty private one of this user; never through a link; files created 0600 in a 0700 folder', async () => {
    const { dataDir, server } = await populated(1)
    try {
      const backup = (dir: string) => run(['backup', dir, '--data', dataDir])
      const refused = async (dir: string, words: string) => {
        const result = await backup(dir)
        expect(result.code, result.stderr).toBe(1)
        expect(result.stderr).toContain(words)
      }
      // A link to an empty folder, planted where the backup is to go.
      const planted = freshDir('planted')
      mkdirSync(planted, { mode: 0o700 })
      const link = freshDir('link')
      symlinkSync(planted, link)
      await refused(link, 'is a symbolic link')
      expect(readdirSync(planted)).toEqual([])
      // An empty folder anyone may write to (links could be put into it while the backup runs).
      const open = freshDir('open')
      mkdirSync(open)
      chmodSync(open, 0o777)
      await refused(open, 'is writable by others')
      // Another user's empty folder (the tests run as root, so the folder can be given away).
      const theirs = freshDir('theirs')
      mkdirSync(theirs, { mode: 0o700 })
      chownSync(theirs, 65534, 65534)
      await refused(theirs, 'belongs to another user')
      // A new folder in a folder anyone may change (no sticky bit): it could be swapped for another.
      const shared = freshDir('shared')
      mkdirSync(shared)
      chmodSync(shared, 0o777)
      await refused(join(shared, 'backup'), 'which others may write to')
      expect(existsSync(join(shared, 'backup'))).toBe(false)

      // A new folder under /tmp-like sticky folders, and an empty private folder of this user, both work.
      for (const dir of [
        freshDir('new'),
        (() => {
          const mine = freshDir('mine')
          mkdirSync(mine, { mode: 0o700 })
          return mine
        })(),
      ]) {
        const result = await backup(dir)
        expect(result.code, result.stderr).toBe(0)
        expect(statSync(dir).mode & 0o777).toBe(0o700)
        expect(readdirSync(dir).sort()).toEqual(['backup.json', 'blobs', 'jwt-secret', 'pdfshare.db'])
        for (const name of ['backup.json', 'jwt-secret', 'pdfshare.db']) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600)
      }
    } finally {
      await server.stop()
    }
  })

  test('as root, never inside a folder another user owns, even a sticky one: they could swap the folder mid-backup', async () => {
    const { dataDir, server } = await populated(1)
    try {
      const backup = (dir: string) => run(['backup', dir, '--data', dataDir])
      // A user's home-like folder (the tests run as root, so folders can be given away).
      const theirs = freshDir('home-of-nobody')
      mkdirSync(theirs, { mode: 0o755 })
      chownSync(theirs, 65534, 65534)
      const ownInside = join(theirs, 'root-made')
      mkdirSync(ownInside, { mode: 0o700 }) // root's own folder, but its owner may still move it away
      // Their sticky folder: the sticky bit does not bind a folder's owner.
      const theirSticky = freshDir('sticky-of-nobody')
      mkdirSync(theirSticky)
      chmodSync(theirSticky, 0o1777)
      chownSync(theirSticky, 65534, 65534)
      for (const [dir, ancestor] of [
        [join(theirs, 'backup'), theirs],
        [join(ownInside, 'backup'), theirs],
        [join(theirSticky, 'backup'), theirSticky],
      ] as const) {
        const result = await backup(dir)
        expect(result.code, result.stderr).toBe(1)
        expect(result.stderr).toContain(`the backup directory ${dir} is inside ${ancestor}, which belongs to another user (uid 65534)`)
        expect(existsSync(dir)).toBe(false)
      }

      // A sticky folder of root's, as /tmp: others may add to it, never move what is root's.
      const sticky = freshDir('sticky')
      mkdirSync(sticky)
      chmodSync(sticky, 0o1777)
      const result = await backup(join(sticky, 'backup'))
      expect(result.code, result.stderr).toBe(0)
      expect(readdirSync(join(sticky, 'backup')).sort()).toEqual(['backup.json', 'blobs', 'jwt-secret', 'pdfshare.db'])
    } finally {
      await server.stop()
    }
  })

  test('the folder swapped mid-backup for a link to another: everything lands in the folder opened, nothing through the link', async () => {
    const app = await startTestApp()
    const file = await uploadPdf(app, await app.user('alice'))
    const target = freshDir('swapped')
    const movedAway = `${target}-moved`
    const elsewhere = freshDir('elsewhere')
    mkdirSync(elsewhere, { mode: 0o777 })
    // What the owner of a folder above could do while the PDFs are copied: move the backup folder away and put a
    // link to a folder of theirs in its place, holding the folders the backup had made so far (names they
    // cannot see, but could guess or learn).
    let mirrored: string[] | undefined
    const swap = () => {
      renameSync(target, movedAway)
      mirrored = readdirSync(movedAway, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => relative(movedAway, join(entry.parentPath, entry.name)))
      for (const folder of mirrored) mkdirSync(join(elsewhere, folder), { recursive: true, mode: 0o777 })
      symlinkSync(elsewhere, target)
    }
    const blobs: BlobStore = {
      ...app.ctx.blobs,
      stat: async (key) => {
        if (!mirrored) swap()
        return app.ctx.blobs.stat(key)
      },
    }
    const result = await backupTo({ ...app.ctx, blobs }, target)
    expect(mirrored!.length).toBeGreaterThan(0)
    expect(result.files).toBe(1)
    expect(readdirSync(elsewhere, { recursive: true }).sort()).toEqual(mirrored!.sort())
    expect(readdirSync(movedAway).sort()).toEqual(['backup.json', 'blobs', 'jwt-secret', 'pdfshare.db'])
    expect(
      readdirSync(join(movedAway, 'blobs'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.pdf')),
    ).toHaveLength(1)
    const copy = createClient({ url: `file:${join(movedAway, 'pdfshare.db')}` })
    expect((await copy.execute('SELECT id FROM files')).rows.map((row) => row.id)).toEqual([file.id])
    copy.close()
  })

  test('restore, as root, never assembles a data dir inside a folder another user owns: they could swap it mid-restore', async () => {
    const dataDir = freshDir('data')
    expect((await run(['user', 'add', 'alice', '--data', dataDir])).code).toBe(0)
    const backupDir = freshDir('backup')
    expect((await run(['backup', backupDir, '--data', dataDir])).code).toBe(0)
    const theirs = freshDir('home-of-nobody')
    mkdirSync(theirs, { mode: 0o755 })
    chownSync(theirs, 65534, 65534)
    const target = join(theirs, 'data')
    const refused = await run(['restore', backupDir, '--data', target])
    expect(refused.code, refused.stderr).toBe(1)
    expect(refused.stderr).toContain(`the data dir ${target} is inside ${theirs}, which belongs to another user (uid 65534)`)
    expect(readdirSync(theirs)).toEqual([])
    // Into a folder of root's, it works.
    const restored = await run(['restore', backupDir, '--data', freshDir('restored')])
    expect(restored.code, restored.stderr).toBe(0)
  })

  test('the day’s visitor salt is not in a backup, not even its bytes', async () => {
    const { dataDir, server } = await populated(1)
    const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
    const list = await (await fetch(`${server.url}/api/files`, { headers: bearer(token) })).json()
    const shareUrl = new URL(list.data[0].shareUrl)
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'
    expect((await fetch(`${server.url}${shareUrl.pathname}`, { headers: { 'user-agent': chrome } })).status).toBe(200)
    const live = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
    const salt = String((await live.execute("SELECT value FROM meta WHERE key = 'visitor_salt'")).rows[0]![0])
    live.close()
    expect(salt).toMatch(/^\d{4}-\d\d-\d\d:/)
    const backupDir = freshDir('backup')
    expect((await run(['backup', backupDir, '--data', dataDir])).code).toBe(0)
    await server.stop()
    const copy = createClient({ url: `file:${join(backupDir, 'pdfshare.db')}` })
    expect((await copy.execute("SELECT count(*) AS n FROM meta WHERE key = 'visitor_salt'")).rows[0]!.n).toBe(0)
    expect(Number((await copy.execute('SELECT count(*) AS n FROM visits')).rows[0]!.n)).toBe(1)
    copy.close()
    expect(readFileSync(join(backupDir, 'pdfshare.db')).includes(salt.slice(11))).toBe(false)
  })
})

describe('previous versions in verify, backup and restore', () => {
  /** A data dir with one file replaced twice: its current PDF and 2 kept versions, each with its own blob. */
  async function withVersions() {
    const { dataDir, token, server, files } = await populated(1)
    const file = files[0]!
    for (const text of ['second', 'third']) {
      const response = await fetch(`${server.url}/api/files/${file.id}`, {
        method: 'PUT',
        headers: bearer(token),
        body: form({ bytes: makePdf({ text: () => text }) }),
      })
      expect(response.status).toBe(200)
    }
    await server.stop()
    const client = createClient({ url: `file:${join(dataDir, 'pdfshare.db')}` })
    const versions = (await client.execute('SELECT id, blob_key, sha256 FROM file_versions ORDER BY seq')).rows.map((row) => ({
      id: String(row.id),
      blobKey: String(row.blob_key),
      sha256: String(row.sha256),
    }))
    client.close()
    expect(versions).toHaveLength(2)
    return { dataDir, token, fileId: file.id, versions }
  }

  test('verify checks every kept version: a damaged version blob is reported with its file and version, exit 1', async () => {
    const { dataDir, fileId, versions } = await withVersions()
    const ok = await run(['verify', '--data', dataDir])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('checked 1 file(s) and 2 previous version(s)')
    expect(ok.stdout).not.toContain('unreferenced')

    const damagedVersion = versions[0]!
    const path = blobPaths(dataDir).find((p) => p.endsWith(`${damagedVersion.blobKey}.pdf`))!
    const bytes = readFileSync(path)
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff
    writeFileSync(path, bytes)
    const bad = await run(['verify', '--data', dataDir])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain(`problem: file ${fileId} version ${damagedVersion.id}`)
    expect(bad.stdout).toContain('SHA-256 is')
    expect(bad.stdout).toContain('1 damaged file(s), 0 unreferenced blob(s)')
  })

  test('backup copies the versions and restore brings them back: listed, downloadable, each with its SHA-256', async () => {
    const { dataDir, token, fileId, versions } = await withVersions()
    const backupDir = freshDir('backup')
    const backup = await run(['backup', backupDir, '--data', dataDir])
    expect(backup.code).toBe(0)
    expect(backup.stdout).toContain('backed up 1 file(s) and 2 previous version(s)')
    expect(JSON.parse(readFileSync(join(backupDir, 'backup.json'), 'utf8'))).toMatchObject({ files: 1, versions: 2 })
    expect(blobPaths(backupDir)).toHaveLength(3)

    const restoredDir = freshDir('restored')
    const restored = await run(['restore', backupDir, '--data', restoredDir])
    expect(restored.code).toBe(0)
    expect(restored.stdout).toContain('restored 1 file(s) and 2 previous version(s)')
    const verified = await run(['verify', '--data', restoredDir])
    expect(verified.code).toBe(0)
    expect(verified.stdout).toContain('checked 1 file(s) and 2 previous version(s)')

    const server = await startServer(['--data', restoredDir])
    try {
      const listed = await (await fetch(`${server.url}/api/files/${fileId}/versions`, { headers: bearer(token) })).json()
      expect(listed.data.map((v: { id: string }) => v.id).slice(1)).toEqual(versions.map((v) => v.id).reverse())
      for (const version of versions) {
        const response = await fetch(`${server.url}/api/files/${fileId}/versions/${version.id}/content`, { headers: bearer(token) })
        expect(response.status).toBe(200)
        expect(new Bun.CryptoHasher('sha256').update(await response.arrayBuffer()).digest('hex')).toBe(version.sha256)
      }
    } finally {
      await server.stop()
    }
  })

  test('restore names a damaged version blob of the backup', async () => {
    const { dataDir, fileId, versions } = await withVersions()
    const backupDir = freshDir('backup')
    expect((await run(['backup', backupDir, '--data', dataDir])).code).toBe(0)
    rmSync(blobPaths(backupDir).find((p) => p.endsWith(`${versions[1]!.blobKey}.pdf`))!)
    const target = freshDir('restored')
    const damaged = await run(['restore', backupDir, '--data', target])
    expect(damaged.code).toBe(1)
    expect(damaged.stderr).toContain(`the backup is damaged: 1 of 3 PDF(s)`)
    expect(damaged.stderr).toContain(`version ${versions[1]!.id} of file ${fileId}: its PDF is missing`)
    expect(existsSync(target)).toBe(false)
  })
})

describe('on PostgreSQL', () => {
  test('the CLI works on the shared database, and backup and restore point to the servers’ own tools', async () => {
    const postgres = await freshPostgres()
    try {
      const env = { PDFSHARE_DATABASE_URL: postgres.url }
      const dataDir = freshDir('on-postgres')
      expect((await run(['user', 'add', 'alice', '--data', dataDir], { env })).code).toBe(0)
      const listed = await run(['user', 'list', '--data', dataDir], { env })
      expect(listed.stdout).toContain('alice')
      const backup = await run(['backup', freshDir('pg-backup'), '--data', dataDir], { env })
      expect(backup.code).toBe(2)
      expect(backup.stderr).toContain('pg_dump')
      const restore = await run(['restore', freshDir('pg-backup'), '--data', freshDir('pg-restored')], { env })
      expect(restore.code).toBe(2)
      expect(restore.stderr).toContain('pg_restore')
    } finally {
      await postgres.stop()
    }
  })
})
