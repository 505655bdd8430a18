import { describe, expect, test } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import type { LinkDto } from '../../src/routes/links/model'
import type { RoomDto } from '../../src/routes/rooms/model'
import { startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { uploadPdf } from '../support/uploads'

// docs/languages.md: a reader's page is in the link's language, else the picker's cookie's, else the browser's
// Accept-Language (negotiated), else PDFSHARE_DEFAULT_LANGUAGE; `lang` and `dir` say which; the picker works
// without script.
const server = await startTestApp({ PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_DEFAULT_LANGUAGE: 'uk' })
const owner = await server.user('language-owner')
const TITLE = 'Quarterly report'
const file = await uploadPdf(server, owner, { bytes: makePdf({ pages: 2 }), name: 'q.pdf' }, { title: TITLE })
const open = await addLink(server, file.id)
// The public URL's path (the test app's is under /base): the pages' own links carry it, the app's routes do not.
const BASE_PATH = new URL(server.config.publicUrl).pathname.replace(/\/$/, '')
const routeOf = (url: string) => new URL(url).pathname.slice(BASE_PATH.length)

const get = (path: string, headers: Record<string, string> = {}) => server.call('GET', path, { headers })
const api = (method: string, path: string, body?: unknown) =>
  server.call(method, path, {
    token: owner.token,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })
/** The page's <html> language and direction. */
const langOf = (page: string) => /<html lang="([^"]+)" dir="(ltr|rtl)">/.exec(page)?.slice(1) ?? []

describe('which language a share page speaks', () => {
  test('Accept-Language, negotiated by q-value, with pt-PT read as pt-BR and de-AT as de', async () => {
    const cases: [string, string, string][] = [
      ['de-AT,de;q=0.9,en;q=0.8', 'de', 'Vorherige Seite'],
      ['fr;q=0.4, ja;q=0.9, en;q=0.1', 'ja', '前のページ'],
      ['pt-PT,pt;q=0.9', 'pt-BR', 'Página anterior'],
      ['zh-CN', 'zh-Hans', '上一页'],
      ['en-GB', 'en', 'Previous page'],
    ]
    for (const [header, language, previous] of cases) {
      const response = await get(open.path, { 'accept-language': header })
      const page = await response.text()
      expect(response.status).toBe(200)
      expect(langOf(page), header).toEqual([language, 'ltr'])
      expect(page).toContain(`aria-label="${previous}"`)
      // The owner's own words stay as written.
      expect(page).toContain(`<h1 class="doc-title" title="${TITLE}">${TITLE}</h1>`)
      // The page differs by these request headers: a cache that keeps it must key on them.
      expect(response.headers.get('vary')).toBe('Accept-Language, Cookie')
    }
  })

  test('a language we do not have, or none, is the instance default (PDFSHARE_DEFAULT_LANGUAGE)', async () => {
    for (const header of ['sv-SE, fi;q=0.5', '']) {
      const page = await (await get(open.path, header ? { 'accept-language': header } : {})).text()
      expect(langOf(page)).toEqual(['uk', 'ltr'])
      expect(page).toContain('aria-label="Попередня сторінка"')
    }
  })

  test('Arabic is right to left', async () => {
    const page = await (await get(open.path, { 'accept-language': 'ar-EG' })).text()
    expect(langOf(page)).toEqual(['ar', 'rtl'])
  })

  test("the picker's cookie beats the header, and the link's language beats both", async () => {
    const french = await (await get(open.path, { 'accept-language': 'de', cookie: 'pdfshare_lang=fr' })).text()
    expect(langOf(french)).toEqual(['fr', 'ltr'])
    const fixed = await addLink(server, file.id, { language: 'ja' })
    const japanese = await (await get(fixed.path, { 'accept-language': 'de', cookie: 'pdfshare_lang=fr' })).text()
    expect(langOf(japanese)).toEqual(['ja', 'ltr'])
    // A cookie naming no language of ours is not one.
    const unknown = await (await get(open.path, { 'accept-language': 'nl', cookie: 'pdfshare_lang=xx' })).text()
    expect(langOf(unknown)).toEqual(['nl', 'ltr'])
  })

  test("the print notice of a link without download is in the page's language too (CSS takes it from the page)", async () => {
    const closed = await addLink(server, file.id, { allowDownload: false })
    const page = await (await get(closed.path, { 'accept-language': 'de' })).text()
    expect(page).toContain('data-print-off="Das Drucken ist für dieses Dokument deaktiviert."')
  })

  test("the viewer script's words come in the page, in its language, not in the script", async () => {
    const page = await (await get(open.path, { 'accept-language': 'pl' })).text()
    const messages = /<script type="application\/json" id="viewer-messages">([^<]*)<\/script>/.exec(page)
    expect(messages).not.toBeNull()
    const parsed = JSON.parse(messages![1]!) as Record<string, string>
    expect(parsed['viewer.retry']).toBe('Spróbuj ponownie')
    expect(Object.keys(parsed).every((key) => key.startsWith('viewer.'))).toBe(true)
  })
})

describe('the picker', () => {
  test('every reader page lists the twelve languages as plain links', async () => {
    const page = await (await get(open.path, { 'accept-language': 'de' })).text()
    for (const tag of ['en', 'de', 'fr', 'es', 'it', 'pt-BR', 'nl', 'pl', 'ja', 'zh-Hans', 'ar', 'uk'])
      expect(page).toContain(`href="${BASE_PATH}/language/${tag}?back=${encodeURIComponent(BASE_PATH + open.path)}"`)
  })

  test('a language link sets the cookie and goes back to the page; a back elsewhere goes home', async () => {
    const response = await get(`/language/ar?back=${encodeURIComponent(BASE_PATH + open.path)}`)
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(BASE_PATH + open.path)
    expect(response.headers.get('set-cookie')).toBe(
      `pdfshare_lang=ar; Max-Age=31536000; Path=${BASE_PATH}/; HttpOnly; SameSite=Lax; Secure`,
    )
    for (const back of ['//evil.example/s/x', 'https://evil.example/', `${BASE_PATH}/api/me`, `${BASE_PATH}/s/x\\y`, open.path])
      expect((await get(`/language/de?back=${encodeURIComponent(back)}`)).headers.get('location')).toBe(`${BASE_PATH}/`)
    expect((await get('/language/xx?back=/')).status).toBe(404)
  })
})

describe('the other reader pages', () => {
  test('a password gate in German, its wrong password too', async () => {
    const locked = await addLink(server, file.id, { password: 'open sesame' })
    const page = await (await get(locked.path, { 'accept-language': 'de' })).text()
    expect(langOf(page)).toEqual(['de', 'ltr'])
    expect(page).toContain('<title>Passwort erforderlich</title>')
    expect(page).toContain('Geben Sie das Passwort ein, das Sie mit diesem Link erhalten haben.')
    const wrong = await server.call('POST', locked.path, {
      headers: { 'accept-language': 'de', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'password=nope',
    })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('Falsches Passwort. Versuchen Sie es erneut.')
  })

  test('the address and agreement gates in German; the agreement stays as the owner wrote it', async () => {
    const asking = await addLink(server, file.id, { access: 'email' })
    const address = await (await get(asking.path, { 'accept-language': 'de' })).text()
    expect(address).toContain('<title>Ihre E-Mail-Adresse</title>')
    const agreeing = await addLink(server, file.id, { agreement: 'Keep this confidential.' })
    const agreement = await (await get(agreeing.path, { 'accept-language': 'de' })).text()
    expect(agreement).toContain('<title>Zustimmen und fortfahren</title>')
    expect(agreement).toContain('Keep this confidential.')
  })

  test('the 404 and 410 pages; a date the way the language writes it', async () => {
    const missing = await get('/s/no-such-link', { 'accept-language': 'de' })
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('<title>Nicht gefunden</title>')
    const expired = await addLink(server, file.id, { expiresAt: Date.UTC(2026, 0, 2, 12) })
    const gone = await get(expired.path, { 'accept-language': 'ja' })
    expect(gone.status).toBe(410)
    const page = await gone.text()
    expect(langOf(page)).toEqual(['ja', 'ltr'])
    expect(page).toContain('2026年1月2日')
    const english = await (await get(expired.path, { 'accept-language': 'en' })).text()
    expect(english).toContain('This link expired on January 2, 2026.')
  })

  test("a room's index in German, its numbers in the language's way", async () => {
    const room = (await (await api('POST', '/api/rooms', { name: 'Deal room', items: [{ fileId: file.id }] })).json()).data as RoomDto
    const page = await (await get(routeOf(room.shareUrl), { 'accept-language': 'de' })).text()
    expect(langOf(page)).toEqual(['de', 'ltr'])
    expect(page).toContain('Nach Titel filtern')
    // Its size, a unit through Intl (its page count comes once the server has read the PDF, not awaited here).
    expect(page).toContain('1 kB')
    expect(page).toContain('<h1>Deal room</h1>')
  })

  test("a room link's own language holds on its index and its documents' pages", async () => {
    const room = (await (await api('POST', '/api/rooms', { name: 'Fixed room', items: [{ fileId: file.id }] })).json()).data as RoomDto
    const created = await api('POST', `/api/rooms/${room.id}/links`, { language: 'zh-Hans' })
    expect(created.status).toBe(201)
    const link = (await created.json()).data as LinkDto
    const index = await (await get(routeOf(link.url), { 'accept-language': 'de' })).text()
    expect(langOf(index)).toEqual(['zh-Hans', 'ltr'])
    expect(index).toContain('按标题筛选')
    const document = await (await get(`${routeOf(link.url)}/docs/${file.id}`, { 'accept-language': 'de' })).text()
    expect(langOf(document)).toEqual(['zh-Hans', 'ltr'])
    expect(document).toContain('aria-label="上一页"')
  })

  test("a file request's page in German, with the picker", async () => {
    const response = await api('POST', '/api/requests', { title: 'Your statements' })
    expect(response.status).toBe(201)
    const slug = ((await response.json()).data.url as string).split('/u/')[1]!
    const page = await (await get(`/u/${slug}`, { 'accept-language': 'de' })).text()
    expect(langOf(page)).toEqual(['de', 'ltr'])
    expect(page).toContain('Ihr Name')
    expect(page).toContain(`href="${BASE_PATH}/language/fr?back=${encodeURIComponent(`${BASE_PATH}/u/${slug}`)}"`)
  })
})

describe("a link's language in the API", () => {
  test('set on a new link, changed, cleared; anything but one of the twelve is a 400', async () => {
    const created = await api('POST', `/api/files/${file.id}/links`, { language: 'pt-BR' })
    expect(created.status).toBe(201)
    const link = (await created.json()).data as LinkDto
    expect(link.language).toBe('pt-BR')
    const changed = await api('PATCH', `/api/links/${link.id}`, { language: 'ar' })
    expect(((await changed.json()).data as LinkDto).language).toBe('ar')
    const page = await (await get(routeOf(link.url), { 'accept-language': 'de' })).text()
    expect(langOf(page)).toEqual(['ar', 'rtl'])
    const cleared = await api('PATCH', `/api/links/${link.id}`, { language: null })
    expect(((await cleared.json()).data as LinkDto).language).toBeNull()
    const wrong = await api('PATCH', `/api/links/${link.id}`, { language: 'pt-PT' })
    expect(wrong.status).toBe(400)
    const body = await wrong.json()
    expect(body.code).toBe('invalid_request')
    expect(body.error).toContain('language must be one of "en", "de"')
  })
})

// docs/languages.md, The dashboard: its page is negotiated as a reader's page is, and carries one language's messages.
describe("the dashboard's page", () => {
  test("speaks the browser's or the cookie's language, holds only that language's messages, and its picker leads back to it", async () => {
    const german = await get('/app', { 'accept-language': 'de-AT, en;q=0.5' })
    const page = await german.text()
    expect(page).toContain('<html lang="de" dir="ltr">')
    expect(german.headers.get('vary')).toBe('Accept-Language, Cookie')
    const block = /<script type="application\/json" id="dashboard-messages">(.*?)<\/script>/s.exec(page)?.[1] ?? '{}'
    const messages: Record<string, string> = JSON.parse(block)
    expect(messages['nav.files']).toBe('Dateien')
    expect(messages['signIn.submit']).toBe('Anmelden')
    expect(page).not.toContain('"Sign in"')
    const arabic = await (await get('/app', { 'accept-language': 'de', cookie: 'pdfshare_lang=ar' })).text()
    expect(arabic).toContain('<html lang="ar" dir="rtl">')
    const back = await get(`/language/fr?back=${encodeURIComponent(`${BASE_PATH}/app`)}`)
    expect(back.headers.get('location')).toBe(`${BASE_PATH}/app`)
  })
})
