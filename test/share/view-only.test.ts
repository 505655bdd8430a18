import { describe, expect, test } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import { startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { untilDrawn } from '../support/busy'
import { FIREFOX } from '../support/user-agents'

// "No download" that holds (docs/share-page.md): a link that does not allow downloads never sends its PDF; its
// page shows the pages drawn on the server, with their text.
const server = await startTestApp({ PDFSHARE_TRUST_PROXY: '1', PDFSHARE_RATE_LIMIT_SHARE: '0' })
const owner = await server.user('view-only-owner')
const file = await uploadPdf(server, owner, {
  bytes: makePdf({ pages: 3, pageSize: (p) => (p === 3 ? [842, 595] : [612, 792]), text: (p) => `Chapter ${p}` }),
  name: 'view-only.pdf',
})

let addresses = 0
/** A reader's GET; asked again while the renderers are all busy (503: a page still being counted or drawn), as a reader would. */
const get = (path: string, headers: Record<string, string> = {}) =>
  untilDrawn(() =>
    server.call('GET', path, { headers: { 'user-agent': FIREFOX, 'x-forwarded-for': `198.18.11.${++addresses % 250}`, ...headers } }),
  )

describe('a link that does not allow downloads', () => {
  test('its PDF is sent by no route: /file and /download answer 403 with the same words, and nothing of the PDF', async () => {
    const link = await addLink(server, file.id, { allowDownload: false })
    for (const route of ['/file', '/download']) {
      const refused = await get(`${link.path}${route}`, { range: 'bytes=0-99' })
      expect(`${route} ${refused.status}`).toBe(`${route} 403`)
      expect(refused.headers.get('content-type')).toStartWith('text/html')
      const body = await refused.text()
      expect(body).toContain('Download turned off')
      expect(body).not.toContain('%PDF-')
    }
    // The same file behind a link that allows downloads: its bytes as before.
    const open = await addLink(server, file.id)
    expect((await get(`${open.path}/file`)).headers.get('content-type')).toBe('application/pdf')
  })

  test('its page is the image viewer: every page size to lay out, where the pages are, and no PDF to fetch', async () => {
    const link = await addLink(server, file.id, { allowDownload: false })
    const page = await (await get(link.path)).text()
    expect(page).toContain('data-mode="images"')
    expect(page).toContain(`data-pages-url="/base${link.path}/pages/"`)
    expect(page).toContain('data-sizes="612x792*2,842x595"')
    expect(page).not.toContain('data-file=')
    expect(page).not.toContain('data-pdfjs=')
    expect(page).toContain('<body data-download="off"')
    // The pages and their text open for it.
    expect((await get(`${link.path}/pages/3?w=480`)).headers.get('content-type')).toBe('image/webp')
    const text = await (await get(`${link.path}/pages/3/text`)).json()
    expect(text.words.map((word: unknown[]) => word[4])).toEqual(['Chapter', '3'])
    expect([text.width, text.height]).toEqual([842, 595])
  })
})
