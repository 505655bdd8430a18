import { describe, expect, test } from 'bun:test'
import { startTestApp } from '../support/harness'

const server = await startTestApp()

describe('GET /app, the dashboard page', () => {
  test('one page with a strict policy, no inline script, its script and style served from /assets', async () => {
    for (const path of ['/app', '/app/']) {
      const response = await server.call('GET', path)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      const csp = response.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).not.toContain('unsafe')
      expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow')
      expect(response.headers.get('set-cookie')).toBeNull()
      const page = await response.text()
      // Every script has a src: nothing inline for the policy to refuse. The one inline block is data that never
      // runs (the page's messages in its language, as JSON, with no `<` that could end it).
      const scripts = [...page.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)]
      expect(scripts.filter((tag) => !/\ssrc="/.test(tag[1]!)).map((tag) => tag[1])).toEqual([
        ' type="application/json" id="dashboard-messages"',
      ])
      expect(() => JSON.parse(scripts.find((tag) => tag[1]!.includes('dashboard-messages'))![2]!)).not.toThrow()
      // The API base follows the public URL's path prefix.
      expect(page).toContain('data-api="/base/api"')
      const assets = [...page.matchAll(/(?:src|href)="\/base(\/assets\/[^"]+)"/g)].map((match) => match[1]!)
      expect(assets.some((path) => /dashboard-.*\.js$/.test(path))).toBe(true)
      expect(assets.some((path) => /dashboard-.*\.css$/.test(path))).toBe(true)
      for (const asset of assets) expect(`${asset} ${(await server.call('GET', asset)).status}`).toBe(`${asset} 200`)
    }
  })

  test('the bare address leads to the dashboard', async () => {
    const response = await server.call('GET', '/')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/base/app')
  })
})
