import { expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pageCacheBudget } from '../../src/core/previews/page-cache-budget'

// PDFSHARE_PAGE_CACHE_SIZE: pages drawn on the server take at most that much disk, least recently served out first.

const folder = () => mkdtempSync(join(tmpdir(), 'pdfshare-page-cache-'))
const page = (dir: string, name: string, bytes = 300) => {
  writeFileSync(join(dir, name), new Uint8Array(bytes))
  return join(dir, name)
}

test('past the budget, the least recently served pages go until nine tenths of it are used', () => {
  const dir = folder()
  try {
    const budget = pageCacheBudget(dir, 1000)
    const [one, two, three, four] = ['k1.p1-w800.webp', 'k1.p2-w800.webp', 'k2.p1.text.json', 'k2.p1-w480.failed'].map((name) =>
      page(dir, name),
    )
    for (const path of [one!, two!, three!]) budget.written(path)
    expect(budget.bytes).toBe(900)
    budget.used(one!) // served again: now the most recent
    budget.written(four!)
    // 1,200 bytes: two (the least recently served) goes, and that is back to 900.
    expect([one, two, three, four].map((path) => existsSync(path!))).toEqual([true, false, true, true])
    expect(budget.bytes).toBe(900)
    // A page deleted with its PDF is no longer counted.
    rmSync(three!)
    budget.removed(three!)
    expect(budget.bytes).toBe(600)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('at start, the pages on disk are counted oldest first; cards and half-written files are not pages', () => {
  const dir = folder()
  try {
    const old = page(dir, 'k1.p3-w1200.webp', 600)
    const young = page(dir, 'k1.p4-w1200.webp', 600)
    utimesSync(old, new Date(2026, 0, 1), new Date(2026, 0, 1))
    page(dir, 'k1.png', 5000) // the link card
    page(dir, 'k1.p5-w1200.webp.tmp', 5000)
    const budget = pageCacheBudget(dir, 1000)
    expect(budget.bytes).toBe(1200)
    budget.written(page(dir, 'k1.p6-w480.webp', 100))
    expect([existsSync(old), existsSync(young), existsSync(join(dir, 'k1.png'))]).toEqual([false, true, true])
    expect(budget.bytes).toBe(700)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
