import { join } from 'node:path'
import type { TestServer } from './harness'

/** A free loopback port (asked of the system, then released). */
function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

/**
 * Starts the test OpenID Connect provider (test/support/oidc-provider.mjs: oidc-provider under Node, on loopback)
 * for a pdfshare whose callback is `redirectUri`. Its login decides the account's claims (see that file).
 */
export async function startOidcProvider(redirectUri: string): Promise<{ issuer: string; stop: () => void }> {
  const port = freePort()
  const proc = Bun.spawn(['node', join(import.meta.dir, 'oidc-provider.mjs'), String(port), redirectUri], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  const { value } = await reader.read()
  if (!new TextDecoder().decode(value).includes('ready')) throw new Error('the test OpenID Connect provider did not start')
  reader.releaseLock()
  return { issuer: `http://127.0.0.1:${port}`, stop: () => proc.kill() }
}

/** The settings that point a test app at the provider (its callback: the harness's public URL). */
export const oidcSettings = (issuer: string) => ({
  PDFSHARE_OIDC_ISSUER: issuer,
  PDFSHARE_OIDC_CLIENT_ID: 'pdfshare',
  PDFSHARE_OIDC_CLIENT_SECRET: 'a client secret long enough',
  PDFSHARE_OIDC_ALLOWED_DOMAINS: 'example.com',
})

/** Cookies by name, as a browser would send them to one site (paths ignored: the flow is sequential). */
class CookieJar {
  readonly #values = new Map<string, string>()
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at).trim()
      const gone = /max-age=0|expires=thu, 01 jan 1970/i.test(line)
      if (gone) this.#values.delete(name)
      else this.#values.set(name, pair.slice(at + 1).trim())
    }
  }
  header = () => [...this.#values].map(([name, value]) => `${name}=${value}`).join('; ')
}

/** The form of the provider's development login or consent page: where it posts, and its hidden fields. */
function formOf(page: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]
  if (!action) throw new Error(`the provider's page has no form: ${page.slice(0, 300)}`)
  const fields: Record<string, string> = {}
  for (const [, name, value] of page.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[name!] = value!
  return { action, fields }
}

/**
 * A whole single sign-on through HTTP, as a browser does it: pdfshare's /auth/oidc/login, the provider's login and
 * consent forms (any password), pdfshare's callback; when that lets the person in, the one-time code is exchanged
 * for a session (POST /api/auth/sso) with the cookie the callback set. `page`: the callback's page when it did not.
 */
export async function signInWithSso(
  server: TestServer,
  login: string,
): Promise<{ status: number; session?: { token: string; user: { id: string; name: string } }; page: string }> {
  const start = await server.call('GET', '/auth/oidc/login')
  if (start.status !== 302) throw new Error(`/auth/oidc/login answered ${start.status}`)
  const pdfshareCookie = (start.headers.getSetCookie()[0] ?? '').split(';')[0]!
  const callback = `${server.config.publicUrl}/auth/oidc/callback`
  const jar = new CookieJar()
  let url = start.headers.get('location')!
  for (let step = 0; !url.startsWith(callback); step++) {
    if (step > 20) throw new Error('the provider kept redirecting')
    let response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } })
    jar.take(response)
    if (response.status === 200) {
      const { action, fields } = formOf(await response.text())
      const body = new URLSearchParams({ ...fields, login, password: 'any password' })
      response = await fetch(new URL(action, url), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        body,
      })
      jar.take(response)
    }
    const next = response.headers.get('location')
    if (!next) throw new Error(`the provider answered ${response.status} without a redirect`)
    url = new URL(next, url).href
  }
  const answer = await server.call('GET', `/auth/oidc/callback${new URL(url).search}`, { headers: { cookie: pdfshareCookie } })
  const page = await answer.text()
  if (answer.status !== 303) return { status: answer.status, page }
  const code = answer.headers.get('location')!.split('#/sso/')[1]!
  // The code works only beside the cookie the callback set in the browser that started (login CSRF).
  const handoffCookie = answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('pdfshare_sso='))
  const exchanged = await server.call('POST', '/api/auth/sso', {
    body: JSON.stringify({ code }),
    headers: { 'content-type': 'application/json', ...(handoffCookie ? { cookie: handoffCookie } : {}) },
  })
  return { status: 303, session: ((await exchanged.json()) as { data: { token: string; user: { id: string; name: string } } }).data, page }
}
