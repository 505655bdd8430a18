import { chromium } from 'playwright-core'
const url = process.argv[2]!
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
page.on('console', (m) => console.log('console', m.type(), m.text()))
page.on('pageerror', (e) => console.log('pageerror', e.message))
page.on('requestfailed', (r) => console.log('failed', r.url(), r.failure()?.errorText))
page.on('response', (r) => console.log('resp', r.status(), r.url().slice(0, 100), r.headers()['content-length'] ?? ''))
await page.goto(url)
await page.waitForSelector('.page canvas', { timeout: 10000 }).catch((e) => console.log('no canvas', e.message))
await page.waitForTimeout(1000)
await page.screenshot({ path: '/tmp/pv/viewer.png' })
console.log('text layer:', await page.locator('.textLayer').first().textContent())
await browser.close()
