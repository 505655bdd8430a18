/**
 * Where a file's share page is, from its shareUrl. The URL names the public origin and base path (the test
 * app's is https://pdf.example.test/base; a spawned server's is http://localhost:<port>), while requests go
 * to the app itself or to the address the server listens on.
 */

/** The share page's path as the app routes it, `/s/<slug>`: for `server.call` and app.handle. */
export function sharePathOf(file: { shareUrl: string }): string {
  const { pathname } = new URL(file.shareUrl)
  const at = pathname.lastIndexOf('/s/')
  if (at < 0) throw new Error(`not a share URL: ${file.shareUrl}`)
  return pathname.slice(at)
}

/** The share page on a spawned server, at the address it listens on (`startServer(…).url`). */
export function shareUrlOn(baseUrl: string, file: { shareUrl: string }): string {
  return `${baseUrl}${sharePathOf(file)}`
}
