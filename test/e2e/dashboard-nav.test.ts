import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { expectAccessible } from './accessibility'
import { useBinaryApp } from './binary-app'
import { SCREENSHOTS, watchedPage } from './browser'

// The dashboard's main navigation on a phone (issue 38: at 390 px "Account" was cut and "Admin" out of sight): at
// 360 px every item is inside the viewport, on top (nothing covers it), and takes a tap; the page never scrolls
// sideways. The first user of the binary is an admin, so Admin is there too.
const app = useBinaryApp({ name: 'nav', user: 'nina' })
const ITEMS = ['Files', 'Rooms', 'Requests', 'Notifications', 'Teams', 'Webhooks', 'Activity', 'Account', 'Admin']

describe("the dashboard's navigation", () => {
  for (const width of [360, 390]) {
    test(`at ${width} px, every item is in the viewport and reachable`, async () => {
      const watched = await watchedPage(app.browser, { width, height: 780 })
      const { page } = watched
      await app.signIn(page)
      const nav = page.getByRole('navigation', { name: 'Main' })
      // Admin comes once the dashboard knows who is signed in.
      await nav.getByRole('link', { name: 'Admin' }).waitFor()
      expect(await nav.getByRole('link').allTextContents()).toEqual(ITEMS)
      // Nothing wider than the screen: no sideways scrolling to find an item.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      for (const name of ITEMS) {
        const link = nav.getByRole('link', { name, exact: true })
        const box = (await link.boundingBox())!
        expect(box.x, name).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width, name).toBeLessThanOrEqual(width)
        // Whole and on top at its centre: not clipped by an overflow, not under another element.
        const onTop = await link.evaluate((element) => {
          const rect = element.getBoundingClientRect()
          const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2)
          return hit !== null && element.contains(hit) && element.scrollWidth <= element.clientWidth + 1
        })
        expect(onTop, name).toBe(true)
      }
      await page.screenshot({ path: join(SCREENSHOTS, `dashboard-nav-${width}.png`) })
      // Each can be followed, the last ones too.
      for (const [name, heading] of [
        ['Account', 'Account'],
        ['Admin', 'Admin'],
      ] as const) {
        await nav.getByRole('link', { name, exact: true }).click()
        await page.waitForURL(new RegExp(`#/${name.toLowerCase()}$`))
        await page.getByRole('heading', { level: 1, name: new RegExp(heading) }).waitFor()
        expect(await nav.getByRole('link', { name, exact: true }).getAttribute('aria-current')).toBe('page')
      }
      await expectAccessible(page, `dashboard navigation at ${width} px`)
      expect(watched.consoleErrors).toEqual([])
      await page.context().close()
    })
  }
})
