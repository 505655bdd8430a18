import { beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { unembeddedFontsPdf } from '../../scripts/support/font-pdfs'
import { eventually } from '../support/eventually'
import { startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'
import { data } from '../support/answers'
import { jsonBody } from '../support/sessions'

// Search (docs/search.md) through HTTP on a real server: the text of real PDFs read by the renderers in the
// background, then found by words, phrases, prefixes, exclusions, without diacritics, in Cyrillic and in CJK;
// never another owner's; a deleted file's text gone at once. Runs on PostgreSQL too (PDFSHARE_TEST_BACKEND).

/** The first 8 pages of pdf.js's test/pdfs/pdkids.pdf, "PD KIDS: public domain texts for young people". */
const PDKIDS = readFileSync(join(import.meta.dir, '..', 'fixtures', 'pdkids-8.pdf'))

/** A two-page PDF with French words in Helvetica (WinAnsi, so PDFium reads their accents). */
async function frenchPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create()
  const font = await document.embedFont(StandardFonts.Helvetica)
  for (const text of ['Le menu du jour', 'Une crème brûlée et un café noir, à la fin du repas.']) {
    document.addPage([400, 300]).drawText(text, { x: 30, y: 200, size: 14, font })
  }
  return document.save()
}

type Hit = {
  file: { id: string; filename: string }
  indexed: true
  pages: number[]
  snippets: { page: number; text: string; matches: [number, number][] }[]
}
type Answer = { data: Hit[]; nextCursor: string | null; notIndexed: { id: string; state: string; error: string | null; indexed: false }[] }

const server = await startTestApp({ PDFSHARE_SEARCH_INDEX: 'true' })
const owner = await server.user('olga')
const stranger = await server.user('sam')
const ids = { pdkids: '', fonts: '', french: '', team: '' }
const teamTokens = { member: '', outsider: '' }

async function search(q: string, token = owner.token, extra = ''): Promise<Answer> {
  const response = await server.call('GET', `/api/search?q=${encodeURIComponent(q)}${extra}`, { token })
  const text = await response.text()
  expect(response.status, text).toBe(200)
  return JSON.parse(text)
}
/** Each hit as `filename: pages`, in rank order. */
const found = async (q: string, token?: string) =>
  (await search(q, token)).data.map((hit) => `${hit.file.filename}: ${hit.pages.join(',')}`)
/** Every file of `token`'s owner is read (nothing pending). */
const allIndexed = (token: string) =>
  eventually(
    async () => expect((await search('anything', token)).notIndexed.filter((file) => file.state === 'pending')).toEqual([]),
    120_000,
  )

beforeAll(async () => {
  const outsider = await server.user('otto')
  ids.pdkids = (await uploadPdf(server, owner, { bytes: PDKIDS, name: 'pdkids.pdf' })).id
  ids.fonts = (await uploadPdf(server, owner, { bytes: unembeddedFontsPdf().bytes, name: 'languages.pdf' })).id
  ids.french = (await uploadPdf(server, owner, { bytes: await frenchPdf(), name: 'menu.pdf' })).id
  // A team olga is a member of, with its own copy of page 7's story; and otto's team, which she is not in.
  const team = await data(await server.call('POST', '/api/teams', { token: owner.token, ...jsonBody({ name: 'Tales' }) }), 201)
  const theirs = await data(await server.call('POST', '/api/teams', { token: outsider.token, ...jsonBody({ name: 'Others' }) }), 201)
  const tokenOf = async (user: { token: string }, teamId: string) =>
    (await data(await server.call('POST', '/api/tokens', { token: user.token, ...jsonBody({ label: 'team', team: teamId }) }), 201)).token
  teamTokens.member = await tokenOf(owner, team.id)
  teamTokens.outsider = await tokenOf(outsider, theirs.id)
  ids.team = (await uploadPdf(server, { token: teamTokens.member }, { bytes: PDKIDS, name: 'team-pdkids.pdf' })).id
  await uploadPdf(server, stranger, { bytes: PDKIDS, name: 'sams-pdkids.pdf' })
  for (const token of [owner.token, teamTokens.member, stranger.token]) await allIndexed(token)
}, 240_000)

describe('search', () => {
  test('words from page 7 of a real document find page 7, with a snippet that marks them', async () => {
    const answer = await search('excreted')
    expect(answer.data.map((hit) => [hit.file.id, hit.pages, hit.indexed])).toEqual([[ids.pdkids, [7], true]])
    const [snippet] = answer.data[0]!.snippets
    expect(snippet!.page).toBe(7)
    expect(snippet!.matches.length).toBeGreaterThan(0)
    for (const [start, length] of snippet!.matches) expect(snippet!.text.slice(start, start + length).toLowerCase()).toBe('excreted')
    expect(answer.notIndexed).toEqual([])
  })

  test('a phrase, a prefix and an excluded word', async () => {
    expect(await found('"gold puppy excreted"')).toEqual(['pdkids.pdf: 7'])
    expect(await found('"excreted puppy gold"')).toEqual([]) // the words, not in this order
    expect(await found('excret')).toEqual([]) // a whole word…
    expect(await found('excret*')).toEqual(['pdkids.pdf: 6,7']) // …or a prefix: page 6 has "excretes"
    expect(await found('raven')).toEqual(['pdkids.pdf: 6,7'])
    expect(await found('raven -excreted')).toEqual(['pdkids.pdf: 6'])
  })

  test('without diacritics, in Cyrillic, Greek, Chinese and Japanese', async () => {
    const french = await search('creme brulee')
    expect(french.data.map((hit) => `${hit.file.filename}: ${hit.pages}`)).toEqual(['menu.pdf: 2'])
    const { text, matches } = french.data[0]!.snippets[0]!
    expect(matches.map(([start, length]) => text.slice(start, start + length))).toEqual(['crème', 'brûlée'])
    expect(await found('электрификация')).toEqual(['languages.pdf: 1'])
    expect(await found('Привет')).toEqual(['languages.pdf: 1'])
    expect(await found('ΚΑΛΗΜΈΡΑ κόσμε')).toEqual(['languages.pdf: 1']) // Greek, in any case
    expect(await found('世界')).toEqual(['languages.pdf: 1']) // inside 你好，世界。, two characters
    expect(await found('中文字体')).toEqual(['languages.pdf: 1'])
    expect(await found('カタカナ')).toEqual(['languages.pdf: 1'])
    expect(await found('世界 -カタカナ')).toEqual([])
  })

  test("another user's files and a team's files for a non-member never match; a team token searches its team's files only", async () => {
    expect(await found('excreted', stranger.token)).toEqual(['sams-pdkids.pdf: 7'])
    expect(await found('excreted', teamTokens.member)).toEqual(['team-pdkids.pdf: 7'])
    expect(await found('excreted', teamTokens.outsider)).toEqual([])
    expect(await found('excreted')).toEqual(['pdkids.pdf: 7']) // olga's own token: her files, not her team's
  })

  test("what a person types never reaches the engine's syntax: a stray quote or operator is harmless, no word is a 400", async () => {
    for (const q of ['excreted"', '"excreted', 'excreted (', '(excreted', 'excreted:*', '^excreted', "excreted'; --", '{excreted} + : -'])
      expect(`${q}: ${await found(q)}`).toBe(`${q}: pdkids.pdf: 7`)
    // Operators of FTS5 or tsquery are words here: "near" is looked for, and no page has both.
    expect(await found('NEAR(excreted')).toEqual([])
    for (const q of ['"', '-excreted', '* - ( )', '"-"']) {
      const answer = await server.call('GET', `/api/search?q=${encodeURIComponent(q)}`, { token: owner.token })
      expect(`${q}: ${answer.status} ${(await answer.json()).code}`).toBe(`${q}: 400 invalid_request`)
    }
    const bad = await server.call('GET', '/api/search?q=raven&cursor=nope', { token: owner.token })
    expect(bad.status).toBe(400)
  })

  test('ranked hits are paged like the files list', async () => {
    const first = await search('puppy', teamTokens.member, '&limit=1')
    expect(first.data.length).toBe(1)
    expect(first.nextCursor).toBeNull()
    const mine = await search('the', owner.token, '&limit=1')
    expect(mine.data.length).toBe(1)
    const next = await search('the', owner.token, `&limit=1&cursor=${mine.nextCursor}`)
    expect(next.data.length).toBe(1)
    expect(next.data[0]!.file.id).not.toBe(mine.data[0]!.file.id)
    expect(next.notIndexed).toEqual([])
  })

  test('a PDF that cannot be read is marked failed and blocks nobody; a file not read yet says indexed: false', async () => {
    const broken = await uploadPdf(server, owner, {
      bytes: new TextEncoder().encode('%PDF-1.7\nnot a PDF at all\n%%EOF\n'),
      name: 'broken.pdf',
    })
    await eventually(async () => {
      const answer = await search('excreted')
      expect(answer.notIndexed.map((file) => [file.id, file.state, file.indexed, typeof file.error])).toEqual([
        [broken.id, 'failed', false, 'string'],
      ])
    }, 120_000)
    const later = await uploadPdf(server, owner, { bytes: await frenchPdf(), name: 'menu-2.pdf' })
    await eventually(async () => expect(await found('brulee')).toEqual(expect.arrayContaining(['menu-2.pdf: 2'])), 120_000)
    await data(await server.call('DELETE', `/api/files/${broken.id}`, { token: owner.token }))
    await data(await server.call('DELETE', `/api/files/${later.id}`, { token: owner.token }))
  })

  test('a deleted file stops matching at once, and its text is gone from the index', async () => {
    const copy = await uploadPdf(server, owner, { bytes: await frenchPdf(), name: 'menu-copy.pdf' })
    await eventually(async () => expect(await found('brulee')).toContain('menu-copy.pdf: 2'), 120_000)
    const pagesOf = async (id: string) =>
      Number((await server.ctx.db.orm.all<{ n: number }>(sql`SELECT count(*) AS n FROM search_pages WHERE file_id = ${id}`))[0]!.n)
    expect(await pagesOf(copy.id)).toBe(2)
    await data(await server.call('DELETE', `/api/files/${copy.id}`, { token: owner.token }))
    expect(await found('brulee')).toEqual(['menu.pdf: 2'])
    expect(await pagesOf(copy.id)).toBe(0)
    if (server.ctx.db.dialect === 'sqlite') {
      // The words of its pages went with its rows (the trigger): only menu.pdf's "brûlée" is left in the FTS5 table.
      const [row] = await server.ctx.db.orm.all<{ n: number }>(
        sql`SELECT count(*) AS n FROM search_words WHERE search_words MATCH 'brulee'`,
      )
      expect(Number(row!.n)).toBe(1)
    }
  })

  test("a replaced PDF's old text stops matching at once; the new one is read", async () => {
    const file = await uploadPdf(server, stranger, { bytes: await frenchPdf(), name: 'menu.pdf' })
    await eventually(async () => expect(await found('brulee', stranger.token)).toEqual(['menu.pdf: 2']), 120_000)
    const body = new FormData()
    body.append('file', new Blob([PDKIDS], { type: 'application/pdf' }), 'menu.pdf')
    await data(await server.call('PUT', `/api/files/${file.id}`, { token: stranger.token, body }))
    expect(await found('brulee', stranger.token)).toEqual([])
    await eventually(async () => expect(await found('excreted', stranger.token)).toHaveLength(2), 120_000)
  })
})
