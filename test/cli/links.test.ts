import { describe, expect, test } from 'bun:test'
import { createClient } from '@libsql/client'
import { join } from 'node:path'
import { run } from '../../scripts/support/process'
import { json, startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'

// The operator's link commands on a data dir whose files and links were made through the API.
const server = await startTestApp()
const cli = (...args: string[]) =>
  run([...args, '--data', server.dataDir], { env: { PDFSHARE_PUBLIC_URL: 'https://pdf.example.test/base' } })

const alice = await server.user('alice')
const file = await uploadPdf(server, alice)
const extra = await json(
  await server.call('POST', `/api/files/${file.id}/links`, {
    token: alice.token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ label: 'For the board', maxViews: 10 }),
  }),
)
const link = extra.data

describe('pdfshare link', () => {
  test('link list FILE_ID: a table of id, state, views, label and url, the default link first', async () => {
    const db = createClient({ url: `file:${join(server.dataDir, 'pdfshare.db')}` })
    await db.execute({ sql: 'UPDATE links SET views = 3 WHERE id = ?', args: [link.id] }).finally(() => db.close())
    const listed = await cli('link', 'list', file.id)
    expect(listed.code).toBe(0)
    const lines = listed.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^ID\s+STATE\s+VIEWS\s+LABEL\s+URL$/)
    expect(lines[1]).toMatch(new RegExp(`active\\s+0\\s+\\(default\\)\\s+${file.shareUrl.replaceAll('.', '\\.')}$`))
    expect(lines[2]).toMatch(new RegExp(`^${link.id}\\s+active\\s+3/10\\s+For the board\\s+${link.url.replaceAll('.', '\\.')}$`))
    expect(lines).toHaveLength(3)
  })

  test('link disable and enable turn a link off and on (any owner: the operator)', async () => {
    const disabled = await cli('link', 'disable', link.id)
    expect(disabled.code).toBe(0)
    expect(disabled.stdout).toContain(`disabled link ${link.id} (now disabled)`)
    const seen = await json(await server.call('GET', `/api/links/${link.id}`, { token: alice.token }))
    expect(seen.data).toMatchObject({ disabled: true, state: 'disabled' })
    expect((await cli('link', 'list', file.id)).stdout).toMatch(new RegExp(`${link.id}\\s+disabled`))

    const enabled = await cli('link', 'enable', link.id)
    expect(enabled.code).toBe(0)
    expect(enabled.stdout).toContain(`enabled link ${link.id} (now active)`)
    expect((await json(await server.call('GET', `/api/links/${link.id}`, { token: alice.token }))).data.disabled).toBe(false)
  })

  test('unknown ids fail with exit code 1 and say which id; bad usage with exit code 2', async () => {
    const noFile = await cli('link', 'list', 'nosuchfile')
    expect(noFile.code).toBe(1)
    expect(noFile.stderr).toContain('no file with id "nosuchfile"')
    for (const action of ['disable', 'enable']) {
      const noLink = await cli('link', action, 'nosuchlink')
      expect(noLink.code).toBe(1)
      expect(noLink.stderr).toContain('no link with id "nosuchlink"')
    }
    expect((await cli('link', 'list')).code).toBe(2)
    expect((await cli('link', 'rename', link.id)).code).toBe(2)
    expect((await cli('link', 'disable', link.id, 'extra')).code).toBe(2)
  })
})
