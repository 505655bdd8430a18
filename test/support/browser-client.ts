import type { TestServer } from './harness'
import { FIREFOX } from './user-agents'

/** What a page's form sends: fields (URL-encoded, as a plain HTML form) or FormData (multipart, with files). */
type FormBody = Record<string, string> | FormData

/**
 * Browsers as the share and sender pages see them, for tests over HTTP. Each call of the returned function is a
 * new browser: its own client address (X-Forwarded-For: the test app trusts one proxy hop; `net` is the first two
 * parts of the documentation addresses, one net per test file), its User-Agent (Firefox unless given; `null` for
 * none), and a cookie jar that keeps every cookie an answer sets and sends them back, as a browser does. It
 * follows no redirect by itself. `setCookies` keeps the Set-Cookie lines as they came, for their attributes.
 */
export function browserClients(server: Pick<TestServer, 'call'>, net: string) {
  let count = 0
  return (options: { userAgent?: string | null; headers?: Record<string, string> } = {}) => {
    count++
    const ip = `${net}.${count >> 8}.${count & 255}`
    const jar = new Map<string, string>()
    const setCookies: string[] = []
    const send = async (method: string, path: string, request: { form?: FormBody; headers?: Record<string, string> } = {}) => {
      const headers: Record<string, string> = { 'x-forwarded-for': ip, ...options.headers, ...request.headers }
      if (options.userAgent !== null) headers['user-agent'] ??= options.userAgent ?? FIREFOX
      if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
      const { form } = request
      const body = form instanceof FormData ? form : form && new URLSearchParams(form).toString()
      if (typeof body === 'string') headers['content-type'] = 'application/x-www-form-urlencoded'
      const response = await server.call(method, path, { headers, body })
      for (const cookie of response.headers.getSetCookie()) {
        setCookies.push(cookie)
        const [pair] = cookie.split(';')
        const at = pair!.indexOf('=')
        jar.set(pair!.slice(0, at), pair!.slice(at + 1))
      }
      return response
    }
    return {
      ip,
      jar,
      setCookies,
      send,
      get: (path: string, headers?: Record<string, string>) => send('GET', path, { headers }),
      post: (path: string, form: FormBody, headers?: Record<string, string>) => send('POST', path, { form, headers }),
    }
  }
}
