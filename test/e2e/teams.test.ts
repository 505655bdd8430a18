import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { makePdf } from '../../scripts/support/pdf'
import { browserNumber } from '../support/user-agents'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { eventually, watchedPage } from './browser'

// The dashboard's teams (docs/teams.md, The dashboard) in Chromium against the compiled binary: a password
// sign-in, a team made on the Teams page and its log, the header's switcher, and the team's file, link and analytics.
const PASSWORD = 'a long enough password'
const app = useBinaryApp({ name: 'teams', user: 'tess', env: { PDFSHARE_RATE_LIMIT_SHARE: '0' } })

const switcher = (page: Page) => page.getByLabel('Acting for')
const fileRows = (page: Page) => page.locator('main.files tbody tr')
/** The totals of the Analytics panel: { Views: '1', … }. */
async function totals(page: Page): Promise<Record<string, string>> {
  const pairs = await page
    .locator('section.analytics .totals > div')
    .evaluateAll((items) => items.map((item) => [item.querySelector('dt')?.textContent ?? '', item.querySelector('dd')?.textContent ?? '']))
  return Object.fromEntries(pairs)
}

describe('teams in the dashboard', () => {
  test("sign in, create a team, switch to it, upload, make a link, a reader's view in the team's analytics; personal files stay apart", async () => {
    await app.cli(['user', 'passwd', 'tess', '--password-stdin'], { stdin: `${PASSWORD}\n` })
    const watched = await watchedPage(app.browser)
    const { page } = watched
    await page.goto(`${app.server.url}/app`)
    await page.getByLabel('User name').fill('tess')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Files' }).waitFor()
    // No team yet: no switcher.
    expect(await switcher(page).count()).toBe(0)

    // The Teams page: create a team; its owner is listed; the page passes axe.
    await page.getByRole('link', { name: 'Teams' }).click()
    await page.getByRole('heading', { name: 'Teams', level: 1 }).waitFor()
    await page.getByLabel('Name').fill('Studio')
    await page.getByRole('button', { name: 'Create the team' }).click()
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: /^Studio/ }) })
    await eventually(async () => expect(await card.locator('tbody tr').first().textContent()).toContain('tess'))
    expect(await card.getByLabel('Role of tess').inputValue()).toBe('owner')
    // Its owner opens the team's log (docs/teams.md, The team's log): the team's creation is there.
    await card.getByText('Log', { exact: true }).click()
    await eventually(async () => expect(await card.locator('table.activity-table').textContent()).toContain('Team created'))
    await expectAccessible(page, 'the Teams page')

    // Switch to the team, and upload into it.
    await switcher(page).selectOption({ label: 'Studio (owner)' })
    await eventually(async () => expect(await page.getByRole('status').textContent()).toContain('Acting for Studio'))
    await page.getByRole('link', { name: 'Files', exact: true }).click()
    await page.getByTestId('upload-input').setInputFiles({
      name: 'team-plan.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(makePdf({ pages: 2, text: (p) => `Team plan, page ${p}` })),
    })
    await eventually(async () => expect(await fileRows(page).first().textContent()).toContain('team-plan.pdf'))

    // A link of the team's file.
    await page.getByRole('link', { name: 'team-plan.pdf' }).click()
    await page.getByRole('heading', { name: 'Links' }).waitFor()
    await page.getByRole('button', { name: 'New link…' }).click()
    const form = page.locator('.new-link form')
    await form.getByLabel(/^Label/).fill('Clients')
    await form.getByRole('button', { name: 'Create the link' }).click()
    const link = page.locator('li', { hasText: 'Clients' }).getByRole('link').first()
    await link.waitFor()
    const url = (await link.textContent()) ?? ''
    expect(url).toContain('/s/')

    // A reader opens it (a person's browser: the headless one is not counted), and the team's analytics count it.
    const read = await fetch(`${app.server.url}${new URL(url).pathname}`, { headers: { 'user-agent': browserNumber(1) } })
    expect(read.status).toBe(200)
    await read.text()
    await eventually(async () => {
      await page.reload()
      await page.getByRole('heading', { name: 'Analytics' }).waitFor()
      expect((await totals(page)).Views).toBe('1')
    })

    // The choice is remembered in this browser: a new tab (its own session), signed in again, acts for the team.
    const other = await page.context().newPage()
    await other.goto(`${app.server.url}/app`)
    await other.getByLabel('User name').fill('tess')
    await other.getByLabel('Password').fill(PASSWORD)
    await other.getByRole('button', { name: 'Sign in' }).click()
    await eventually(async () => expect(await switcher(other).locator('option:checked').textContent()).toBe('Studio (owner)'))
    await eventually(async () => expect(await fileRows(other).first().textContent()).toContain('team-plan.pdf'))
    await other.close()

    // Personal again: the team's file is not among the personal files.
    await switcher(page).selectOption({ label: 'Personal (tess)' })
    await page.getByRole('link', { name: 'Files', exact: true }).click()
    await page.getByRole('heading', { name: 'Files' }).waitFor()
    await eventually(async () => expect(await page.getByText('No PDFs yet').count()).toBeGreaterThan(0))
    expect(await page.locator('main.files').textContent()).not.toContain('team-plan.pdf')
    expect(await page.evaluate(() => localStorage.getItem('pdfshare.team'))).toBeNull()
    expect(watched.consoleErrors).toEqual([])
  })
})
