import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { FileDto } from '../../src/routes/files/model'
import type { LinkDto } from '../../src/routes/links/model'
import type { RoomDto } from '../../src/routes/rooms/model'
import { makePdf } from '../../scripts/support/pdf'
import { shareUrlOn } from '../support/share-paths'
import { FIREFOX } from '../support/user-agents'
import { uploadPdfTo } from '../support/uploads'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { eventually, firstPageInk, SCREENSHOTS, watchedPage } from './browser'

// Rooms in Chromium against the compiled binary (docs/rooms.md): a reader's walk through a room behind a
// password, a view-only room that sends no PDF, and the dashboard's Rooms page from a new room to its index.
const app = useBinaryApp({ name: 'rooms', user: 'rhea', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })
const { json } = app

const jsonBody = (body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const upload = (title: string, pages = 2) =>
  uploadPdfTo(app.server.url, app.token, makePdf({ pages, text: (p) => `${title}, page ${p}` }), { title })

/** A room of three documents in two folders: Minutes on its own in Board, then Budget and Forecast in Financials/2025. */
async function boardPack(name: string) {
  const [minutes, budget, forecast] = [await upload('Minutes'), await upload('Budget', 3), await upload('Forecast')]
  const room = await json<RoomDto>(
    '/rooms',
    jsonBody({
      name,
      items: [
        { fileId: minutes.id, folder: 'Board' },
        { fileId: budget.id, folder: 'Financials/2025' },
        { fileId: forecast.id, folder: 'Financials/2025' },
      ],
    }),
  )
  return { room, files: [minutes, budget, forecast] }
}

/** The index as a reader sees it: its folder headings and its documents' titles, in order. */
async function indexOf(page: Page) {
  await page.locator('.room-document').first().waitFor()
  return {
    folders: await page.locator('main.room h2').allTextContents(),
    titles: await page.locator('.room-document .room-title').allTextContents(),
  }
}

const gates = (page: Page) => page.locator('input[name="password"]').count()

describe('a room link with a password, in Chromium', () => {
  test('the gate appears once; the index lists the three documents; document 2 drawn, the next one, back to the index', async () => {
    const { room, files } = await boardPack('Board pack')
    const link = await json<LinkDto>(`/rooms/${room.id}/links`, jsonBody({ password: 'open sesame' }))
    const url = shareUrlOn(app.server.url, { shareUrl: link.url })
    const watched = await watchedPage(app.browser)
    const { page } = watched
    try {
      await page.goto(url)
      expect(await gates(page)).toBe(1)
      await page.getByLabel('Password').fill('open sesame')
      await page.getByRole('button', { name: 'Open' }).click()

      expect(await indexOf(page)).toEqual({ folders: ['Board', 'Financials/2025'], titles: ['Minutes', 'Budget', 'Forecast'] })
      expect(await gates(page)).toBe(0)
      await expectAccessible(page, 'a room index')
      await page.screenshot({ path: join(SCREENSHOTS, 'room-index.png'), fullPage: true })

      // Document 2: the viewer, its page 1 drawn, and no gate again.
      await page.locator('.room-document a', { hasText: 'Budget' }).click()
      expect(await firstPageInk(page)).toBeGreaterThan(0)
      expect(await page.locator('.doc-title').textContent()).toBe('Budget')
      expect(page.url()).toBe(`${url}/docs/${files[1]!.id}`)
      expect(await page.locator('#page-count').textContent()).toBe('3')
      expect(await gates(page)).toBe(0)
      await page.screenshot({ path: join(SCREENSHOTS, 'room-document.png') })

      // The next document, then back to the room.
      await page.locator('a[rel="next"]').click()
      await page.waitForURL(`${url}/docs/${files[2]!.id}`)
      expect(await firstPageInk(page)).toBeGreaterThan(0)
      expect(await page.locator('.doc-title').textContent()).toBe('Forecast')
      expect(await page.locator('a[rel="next"]').count()).toBe(0)
      await page.getByRole('link', { name: 'Board pack' }).click()
      await page.waitForURL(url)
      expect((await indexOf(page)).titles).toEqual(['Minutes', 'Budget', 'Forecast'])
      expect(await gates(page)).toBe(0)
      expect(watched.consoleErrors).toEqual([])
    } finally {
      await page.context().close()
    }
  }, 180_000)
})

describe('a view-only room, in Chromium', () => {
  test('every response the browser receives is recorded, and not one is a PDF', async () => {
    const { room, files } = await boardPack('View-only pack')
    const link = await json<LinkDto>(`/rooms/${room.id}/links`, jsonBody({ allowDownload: false }))
    const url = shareUrlOn(app.server.url, { shareUrl: link.url })
    const watched = await watchedPage(app.browser)
    const { page } = watched
    const received: { url: string; status: number; type: string; body: Buffer }[] = []
    page.on('response', async (answer) => {
      const body = await answer.body().catch(() => Buffer.alloc(0))
      received.push({ url: answer.url(), status: answer.status(), type: answer.headers()['content-type'] ?? '', body })
    })
    try {
      await page.goto(url)
      expect((await indexOf(page)).titles).toEqual(['Minutes', 'Budget', 'Forecast'])
      // Each document in turn, its pages drawn on the server.
      await page.locator('.room-document a', { hasText: 'Minutes' }).click()
      for (const file of files) {
        await page.waitForURL(`${url}/docs/${file.id}`)
        expect(await firstPageInk(page)).toBeGreaterThan(0)
        await page.locator('.image-page[data-page-number="1"] img').waitFor()
        if (file !== files.at(-1)) await page.locator('a[rel="next"]').click()
      }
      // Asked for outright, the PDF and the ZIP are refused.
      for (const path of [`/docs/${files[1]!.id}/file`, `/docs/${files[1]!.id}/download`, '/download']) {
        expect((await page.goto(`${url}${path}`))?.status()).toBe(403)
      }
      // Each document's page 1 came drawn, as an image.
      for (const file of files) {
        const drawn = received.find((answer) => answer.url.includes(`/docs/${file.id}/pages/1?w=`))
        expect(`${file.filename} ${drawn?.status} ${drawn?.type.split('/')[0]}`).toBe(`${file.filename} 200 image`)
      }
      for (const answer of received) {
        expect(`${answer.url} ${answer.type}`).not.toContain('application/pdf')
        expect(`${answer.url} ${answer.body.includes('%PDF-')}`).toBe(`${answer.url} false`)
      }
    } finally {
      await page.context().close()
    }
  }, 180_000)
})

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id)

describe('the Rooms page of the dashboard', () => {
  test('create a room, add two files, upload one into it, set a folder, reorder by buttons and by dragging; its link shows them in that order', async () => {
    const alpha = await upload('Alpha report')
    const beta = await upload('Beta memo')
    const watched = await watchedPage(app.browser)
    const { page } = watched
    const roomNow = async () => {
      const rooms = await json<RoomDto[]>('/rooms?limit=100')
      return rooms.find((each) => each.name === 'Deal room')!
    }
    const order = async () => (await roomNow()).items.map((item) => [item.title, item.folder])
    try {
      await app.signIn(page)
      await page.getByRole('link', { name: 'Rooms' }).click()
      await page.getByRole('heading', { name: 'Your rooms' }).waitFor()
      expect(await page.title()).toBe('Rooms · pdfshare')
      await page.getByLabel('Name', { exact: true }).fill('Deal room')
      await page.getByLabel(/^Description/).fill('Everything for the closing')
      await page.getByRole('button', { name: 'Create the room' }).click()
      await page.getByRole('heading', { name: 'Deal room', level: 1 }).waitFor()
      await page.getByText('No documents yet').waitFor()

      // Two of the owner's files, found by name.
      await page.getByLabel('Find one of your files').fill('memo')
      await page.getByRole('button', { name: 'Add Beta memo' }).click()
      await page.getByLabel('Find one of your files').fill('')
      await page.getByRole('button', { name: 'Add Alpha report' }).click()
      await eventually(async () =>
        expect(await order()).toEqual([
          ['Beta memo', ''],
          ['Alpha report', ''],
        ]),
      )

      // A PDF uploaded straight into the room: it is a file of the owner's too. Then taken out again.
      await page.getByTestId('room-upload-input').setInputFiles({
        name: 'gamma.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(makePdf({ text: () => 'Gamma' })),
      })
      await eventually(async () => expect((await roomNow()).items.length).toBe(3))
      const gamma = (await roomNow()).items[2]!
      expect(gamma.filename).toBe('gamma.pdf')
      await page.getByRole('button', { name: 'Remove gamma.pdf' }).click()
      await eventually(async () => expect((await roomNow()).items.length).toBe(2))
      expect((await json<FileDto>(`/files/${gamma.fileId}`)).filename).toBe('gamma.pdf')

      // A folder, typed and saved with Enter.
      await page.getByLabel('Folder of Beta memo').fill('Annex')
      await page.getByLabel('Folder of Beta memo').press('Enter')
      await eventually(async () =>
        expect(await order()).toEqual([
          ['Beta memo', 'Annex'],
          ['Alpha report', ''],
        ]),
      )
      await expectAccessible(page, 'a room page')
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-room.png'), fullPage: true })

      // Reordered from the keyboard: the focus stays on the moved document (on Move up once Move down is off).
      await page.getByRole('button', { name: 'Move down Beta memo' }).focus()
      await page.keyboard.press('Enter')
      await eventually(async () =>
        expect(await order()).toEqual([
          ['Alpha report', ''],
          ['Beta memo', 'Annex'],
        ]),
      )
      await eventually(async () => expect(await focusedId(page)).toBe(`room-up-${beta.id}`))
      // And by dragging Beta's handle onto Alpha.
      await page
        .locator('.room-item', { has: page.locator(`#room-item-${beta.id}`) })
        .locator('.drag-handle')
        .dragTo(page.locator('.room-item', { has: page.locator(`#room-item-${alpha.id}`) }))
      await eventually(async () =>
        expect(await order()).toEqual([
          ['Beta memo', 'Annex'],
          ['Alpha report', ''],
        ]),
      )
      await page.getByText('All changes saved').waitFor()

      // The room's link: its index holds them in that order, in their folders.
      const room = await roomNow()
      // A browser's own name, not headless Chromium's (which is not counted, like any automation).
      const reader = await app.browser.newContext({ userAgent: FIREFOX })
      try {
        const index = await reader.newPage()
        await index.goto(shareUrlOn(app.server.url, room))
        expect(await indexOf(index)).toEqual({ folders: ['Annex'], titles: ['Beta memo', 'Alpha report'] })
        // The reader opens the first document: a view of it in this room.
        await index.locator('a[href*="/docs/"]').first().click()
        await index.waitForURL(/\/docs\//)
      } finally {
        await reader.close()
      }

      // The room's analytics: its documents in order, in their folders, the view of the first counted.
      const analytics = page.locator('section.analytics')
      const rows = async () =>
        analytics
          .locator('.room-analytics-documents tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 2).map((cell) => cell.textContent?.trim())))
      await eventually(async () => {
        await analytics.getByRole('button', { name: 'Reload' }).click()
        expect(await rows()).toEqual([
          ['Annex/Beta memo', '1'],
          ['Alpha report', '0'],
        ])
      })

      // A link of its own, made with the file links' form: a password.
      await page.getByRole('button', { name: 'New link…' }).click()
      const form = page.locator('.new-link form')
      await form.getByLabel(/^Label/).fill('Investors')
      await form.getByLabel('Password').fill('open sesame')
      await form.getByRole('button', { name: 'Create the link' }).click()
      await page.locator('.link-item', { has: page.getByRole('heading', { name: 'Investors', exact: true }) }).waitFor()
      const links = await json<LinkDto[]>(`/rooms/${room.id}/links`)
      expect(links.map((link) => [link.label, link.hasPassword, link.roomId])).toEqual([
        ['', false, room.id],
        ['Investors', true, room.id],
      ])

      // The list shows the room; deleted, its link is gone and its files stay.
      await page.getByRole('link', { name: '← All rooms' }).click()
      await page.getByRole('link', { name: 'Deal room' }).click()
      await page.getByRole('button', { name: 'Delete the room…' }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Delete the room' }).click()
      await page.getByRole('heading', { name: 'Your rooms' }).waitFor()
      await eventually(async () => expect(await page.getByRole('link', { name: 'Deal room' }).count()).toBe(0))
      expect((await fetch(shareUrlOn(app.server.url, room))).status).toBe(404)
      expect((await json<FileDto>(`/files/${alpha.id}`)).id).toBe(alpha.id)
      expect(watched.consoleErrors).toEqual([])
      expect(await watched.cspViolations()).toEqual([])
    } finally {
      await page.context().close()
    }
  }, 180_000)
})
