/**
 * The reference server of the benchmarks: plain Bun.serve doing the least possible work for the same kind of
 * answer pdfshare gives. `bun raw-server.ts PORT FILE` serves /json (a small JSON document), /html (an HTML
 * page of the share page's size), /file (FILE with Range support, as Bun serves a file by itself) and
 * /drain (reads a request body to its end and throws it away: Bun's own memory floor for an upload;
 * with ?cap=N it answers 413 and stops reading once more than N bytes came, as an over-cap upload is refused).
 */
const port = Number(process.argv[2] ?? 0)
const file = process.argv[3]
const json = JSON.stringify({
  success: true,
  data: { id: 'x'.repeat(22), filename: 'report.pdf', title: 'Quarterly report', fileSize: 123456 },
})
const html = `<!doctype html><html><head><title>raw</title></head><body>${'<p>lorem ipsum dolor sit amet</p>'.repeat(160)}</body></html>`

const server = Bun.serve({
  port,
  hostname: '127.0.0.1',
  maxRequestBodySize: 1024 * 1024 * 1024,
  async fetch(request) {
    const path = new URL(request.url).pathname
    if (path === '/json') return new Response(json, { headers: { 'content-type': 'application/json' } })
    if (path === '/html') return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
    if (path === '/file' && file) return new Response(Bun.file(file))
    if (path === '/drain' && request.body) {
      const cap = Number(new URL(request.url).searchParams.get('cap') ?? Infinity)
      let bytes = 0
      for await (const chunk of request.body) {
        bytes += chunk.length
        if (bytes > cap) return new Response('too large', { status: 413 }) // leaving the loop cancels the body
      }
      return new Response(String(bytes))
    }
    return new Response('not found', { status: 404 })
  },
})
console.log(`listening on ${server.port}`)
