import { PDFDataRangeTransport } from 'pdfjs-dist'

/**
 * Feeds pdf.js exactly the byte ranges it asks for, with HTTP Range requests. Without it pdf.js opens with a
 * full GET and cancels it once it sees range support, and on a fast link megabytes arrive before the cancel
 * does; here page 1 of a large PDF costs only the chunks that page needs.
 *
 * Every request carries If-Range with the ETag the page was rendered with: if the owner replaces the PDF
 * while it is open, the server answers 200 instead of 206 and the viewer reports it rather than mixing
 * bytes of two different files.
 */
export class HttpRangeTransport extends PDFDataRangeTransport {
  readonly #controller = new AbortController()

  constructor(
    private readonly url: string,
    length: number,
    private readonly etag: string,
    private readonly onFailure: (message: string) => void,
  ) {
    super(length, null)
  }

  override requestDataRange(begin: number, end: number): void {
    fetch(this.url, {
      headers: { range: `bytes=${begin}-${end - 1}`, 'if-range': this.etag },
      credentials: 'same-origin',
      signal: this.#controller.signal,
    })
      .then(async (response) => {
        if (response.status === 200) throw new Error('The document was replaced while it was open. Reload the page to see the new version.')
        if (response.status !== 206) throw new Error('The file could not be loaded. Check your connection and reload the page.')
        this.onDataRange(begin, new Uint8Array(await response.arrayBuffer()))
      })
      .catch((error: Error) => {
        if (error.name !== 'AbortError') this.onFailure(error.message)
      })
  }

  override abort(): void {
    this.#controller.abort()
  }
}
