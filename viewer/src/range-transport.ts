import { PDFDataRangeTransport } from 'pdfjs-dist'

export type TransportEvents = {
  /** A range could not be fetched (the connection broke, or the server answered an error); `retry()` asks again. */
  onNetworkError(): void
  /** The server's PDF is no longer the one this page was opened with. */
  onReplaced(): void
}

type Pending = { begin: number; end: number; controller: AbortController; lastByteAt: number }

/**
 * Feeds pdf.js exactly the byte ranges it asks for, with HTTP Range requests. Without it pdf.js opens with a
 * full GET and cancels it once it sees range support, and on a fast link megabytes arrive before the cancel
 * does; here page 1 of a large PDF costs only the chunks that page needs.
 *
 * Every request carries If-Range with the ETag the page was rendered with: if the owner replaces the PDF
 * while it is open, the server answers 200 instead of 206 and the viewer reports it rather than mixing
 * bytes of two different files.
 *
 * pdf.js waits for every range it asked for, without a time limit; so the transport keeps the ranges that
 * failed (to ask again on `retry()`) and knows how long its open requests have gone without a byte (for the
 * watchdog).
 */
export class HttpRangeTransport extends PDFDataRangeTransport {
  readonly #closed = new AbortController()
  readonly #pending = new Set<Pending>()
  #failed: { begin: number; end: number }[] = []
  /** When a byte last arrived (or the transport was made): Date.now() time. */
  lastByteAt = Date.now()

  constructor(
    private readonly url: string,
    length: number,
    private readonly etag: string,
    private readonly events: TransportEvents,
  ) {
    super(length, null)
  }

  override requestDataRange(begin: number, end: number): void {
    void this.#fetch(begin, end)
  }

  async #fetch(begin: number, end: number): Promise<void> {
    const request: Pending = { begin, end, controller: new AbortController(), lastByteAt: Date.now() }
    this.#pending.add(request)
    try {
      const response = await fetch(this.url, {
        headers: { range: `bytes=${begin}-${end - 1}`, 'if-range': this.etag },
        credentials: 'same-origin',
        signal: AbortSignal.any([this.#closed.signal, request.controller.signal]),
      })
      if (response.status === 200) {
        void response.body?.cancel()
        return this.events.onReplaced()
      }
      if (response.status !== 206 || !response.body) throw new Error(`unexpected answer ${response.status}`)
      // Read as it arrives, so a slow but moving download never looks stalled.
      const bytes = new Uint8Array(end - begin)
      let filled = 0
      const reader = response.body.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        if (filled + value.length > bytes.length) throw new Error('the server sent more than the range')
        bytes.set(value, filled)
        filled += value.length
        request.lastByteAt = this.lastByteAt = Date.now()
      }
      if (filled !== bytes.length) throw new Error('the range arrived incomplete')
      this.onDataRange(begin, bytes)
    } catch {
      if (this.#closed.signal.aborted) return
      // Also a request `retry()` aborted because it stalled: it is asked again right there.
      if (request.controller.signal.aborted) return
      this.#failed.push({ begin, end })
      this.events.onNetworkError()
    } finally {
      this.#pending.delete(request)
    }
  }

  /** How long the longest-waiting open request has gone without a byte, in ms (0 when none is open). */
  stalledFor(now = Date.now()): number {
    let longest = 0
    for (const request of this.#pending) longest = Math.max(longest, now - request.lastByteAt)
    return longest
  }

  /** Asks again for every range that failed, and for every open one that has gone `stalledMs` without a byte. */
  retry(stalledMs: number): void {
    const again = this.#failed
    this.#failed = []
    const now = Date.now()
    for (const request of this.#pending) {
      if (now - request.lastByteAt < stalledMs) continue
      request.controller.abort()
      this.#pending.delete(request)
      again.push(request)
    }
    for (const { begin, end } of again) void this.#fetch(begin, end)
  }

  override abort(): void {
    this.#closed.abort()
  }
}
