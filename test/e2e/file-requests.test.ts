import { describe, expect, test } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import type { FileDto } from '../../src/routes/files/model'
import type { LinkDto } from '../../src/routes/links/model'
import type { RequestDto } from '../../src/routes/requests/model'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { SCREENSHOTS, watchedPage } from './browser'

// A file request's page in Chromium against the compiled binary (docs/requests.md): a sender drops two PDFs on
// the drop zone, sees each one's progress and receipt, and the owner's API lists both with their source and
// their links disabled. The page's strict CSP holds: no violation, no console error.
const app = useBinaryApp({ name: 'requests', user: 'accountant', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })

describe('the sender’s page', () => {
  test('two PDFs dropped: progress shown, a receipt each; the owner sees both, private', async () => {
    const request = await app.json<RequestDto>('/requests', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Your 2026 statements', message: 'One PDF per account, please.', maxFiles: 5 }),
    })
    const sender = await watchedPage(app.browser)
    const { page } = sender
    await page.goto(`${app.server.url}${new URL(request.url).pathname}`)
    await page.getByRole('heading', { name: 'Your 2026 statements' }).waitFor()
    await page.locator('.drop-zone').waitFor() // shown by the page's script

    const pdfs = [
      { name: 'March.pdf', bytes: makePdf({ text: () => 'March statement' }) },
      { name: 'April.pdf', bytes: makePdf({ pages: 2, text: (p) => `April statement, page ${p}` }) },
    ]
    const dropped = await page.evaluateHandle(
      (files) => {
        const transfer = new DataTransfer()
        for (const file of files) transfer.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: 'application/pdf' }))
        return transfer
      },
      pdfs.map((pdf) => ({ name: pdf.name, bytes: [...pdf.bytes] })),
    )
    await page.dispatchEvent('.drop-zone', 'drop', { dataTransfer: dropped })
    expect(await page.locator('.drop-count').textContent()).toBe('2 PDFs chosen')
    await page.getByLabel('Your name').fill('Ada Lovelace')
    await page.getByLabel('Your email address (optional)').fill('ada@example.com')
    await page.getByRole('button', { name: 'Send' }).click()

    const done = page.locator('.upload-list li.upload-done')
    await done.nth(1).waitFor()
    expect(await page.locator('.upload-list li').count()).toBe(2)
    for (const [i, pdf] of pdfs.entries()) {
      const line = page.locator('.upload-list li').nth(i)
      expect(await line.textContent()).toContain(pdf.name)
      expect(await line.locator('progress').evaluate((bar) => (bar as HTMLProgressElement).value)).toBe(1)
      const sha256 = new Bun.CryptoHasher('sha256').update(pdf.bytes).digest('hex')
      // The size as the page's language writes numbers (an English browser here: 1,234).
      const size = new Intl.NumberFormat('en').format(pdf.bytes.length)
      expect(await line.locator('.upload-state').textContent()).toBe(`Received, ${size} bytes, SHA-256 ${sha256}`)
    }
    await expectAccessible(page, 'a file request’s page after two PDFs were sent')
    await page.screenshot({ path: `${SCREENSHOTS}/file-request-sent.png`, fullPage: true })
    expect(sender.consoleErrors).toEqual([])
    expect(await sender.cspViolations()).toEqual([])

    const files = await app.json<FileDto[]>(`/requests/${request.id}/files`)
    expect(files.map((file) => file.filename).sort()).toEqual(['April.pdf', 'March.pdf'])
    for (const file of files) {
      expect(file.source).toEqual({ requestId: request.id, name: 'Ada Lovelace', email: 'ada@example.com', note: null })
      const links = await app.json<LinkDto[]>(`/files/${file.id}/links`)
      expect(links.map((link) => link.disabled)).toEqual([true])
    }
  })
})

describe('the dashboard’s Requests page', () => {
  test('create a request into a room, copy its link; what arrived is listed with its sender, address and note, in the room, and joins another room from there', async () => {
    const newRoom = async (name: string) => {
      const response = await app.api('/rooms', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
      expect(response.status).toBe(201)
      return (await response.json()).data.id as string
    }
    const roomFiles = async (id: string) =>
      ((await (await app.api(`/rooms/${id}`)).json()).data.items as { fileId: string }[]).map((item) => item.fileId)
    const applicants = await newRoom('Applicants')
    const shortlist = await newRoom('Shortlist')
    const owner = await watchedPage(app.browser)
    const { page } = owner
    await app.signIn(page)
    await page.getByRole('link', { name: 'Requests' }).click()
    await page.getByRole('heading', { name: 'Your requests' }).waitFor()
    await page.getByLabel('Title').fill('CVs for the job')
    await page.getByLabel('Message to the senders').fill('One PDF, please.')
    await page.getByLabel('Room the files join').selectOption({ label: 'Applicants' })
    await page.getByRole('button', { name: 'Create the request' }).click()
    const card = page.locator('li.request', { hasText: 'CVs for the job' })
    await card.waitFor()
    const url = await card.getByLabel('Link of CVs for the job', { exact: true }).inputValue()
    expect(url).toMatch(/\/u\/[A-Za-z0-9_-]{22}$/)

    // A sender sends through the link (the API's side is tested in test/api/requests-senders.test.ts).
    const body = new FormData()
    body.append('file', new File([makePdf()], 'cv.pdf', { type: 'application/pdf' }))
    body.append('name', 'Grace Hopper')
    body.append('email', 'grace@example.com')
    body.append('note', 'Available from May')
    expect((await fetch(`${app.server.url}${new URL(url).pathname}/files`, { method: 'POST', body })).status).toBe(201)

    await page.reload()
    await card.getByRole('button', { name: 'What arrived through CVs for the job' }).click()
    const row = card.locator('table.received tbody tr')
    await row.waitFor()
    expect(await row.locator('td').allTextContents()).toEqual([
      expect.stringContaining('cv.pdf'),
      'Grace Hopper',
      'grace@example.com',
      'Available from May',
      expect.any(String),
      expect.stringContaining('Add to a room'),
    ])
    // It joined the request's room as it arrived; from here it joins another.
    const requests: RequestDto[] = (await (await app.api('/requests')).json()).data
    const [arrived] = (await (await app.api(`/requests/${requests.find((r) => r.title === 'CVs for the job')!.id}/files`)).json())
      .data as FileDto[]
    expect(await roomFiles(applicants)).toEqual([arrived!.id])
    await card.getByLabel('Add cv.pdf to a room').selectOption({ label: 'Shortlist' })
    await page.getByText('cv.pdf is in Shortlist').waitFor()
    expect(await roomFiles(shortlist)).toEqual([arrived!.id])
    await expectAccessible(page, 'the Requests page with what arrived')
    await page.screenshot({ path: `${SCREENSHOTS}/requests-page.png`, fullPage: true })
    expect(owner.consoleErrors).toEqual([])
  })
})
