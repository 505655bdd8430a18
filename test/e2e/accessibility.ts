import { expect } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { ROOT } from '../../scripts/support/process'

// The dashboard's accessibility check, shared by its browser tests.
const AXE = await Bun.file(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')).text()

/** axe-core's WCAG 2 A/AA rules (labels, names, contrast…) on the page as it is: no serious or critical finding. */
export async function expectAccessible(page: Page, where: string) {
  expect(`${where}: ${(await accessibilityFindings(page)).join('; ')}`).toBe(`${where}: `)
}

export async function accessibilityFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE) // through DevTools, so the page's own CSP does not apply to the checker
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: unknown,
            options: unknown,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>
        }
      }
    ).axe
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } })
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
}
