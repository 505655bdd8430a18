import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist'
import type { PDFViewer } from 'pdfjs-dist/web/pdf_viewer.mjs'

/** How many pages after a broken page 1 are tried for one that can lay the document out. */
const STAND_IN_TRIES = 10

export type GuardedDocument = {
  /** The document to give to the viewer, the find controller and the link service. */
  document: PDFDocumentProxy
  /** Gives the document to the viewer (call instead of viewer.setDocument). */
  show(viewer: PDFViewer): void
  /**
   * Call first thing on 'pagesinit' (before anything there changes the zoom, which starts drawing): when page 1
   * was laid out with a stand-in, takes the stand-in back from page 1's view, so that view asks for page 1
   * itself, fails, and is reported, instead of drawing another page's content.
   */
  laidOut(viewer: PDFViewer): void
}

/**
 * pdf.js's PDFViewer sizes every page from page 1 and gives up on the whole document when page 1 cannot be
 * read (a broken page object, a damaged page tree): nothing appears and no event says so. Pages after it that
 * cannot be read are left blank, again without an event.
 *
 * This wraps the document so that every page that cannot be read is reported (`onBrokenPage`, each time the
 * viewer asks for it, so its message can be put back after a zoom cleared the page), and so that a broken
 * page 1 does not take the document down: the viewer lays the document out with the first page that can be
 * read as a stand-in, and page 1's place then shows the error instead of the stand-in's content. Returns
 * `undefined` when neither page 1 nor any of the next pages can be read.
 */
export async function guardPages(
  pdf: PDFDocumentProxy,
  onBrokenPage: (pageNumber: number, error: unknown) => void,
): Promise<GuardedDocument | undefined> {
  const getPage = (pageNumber: number) =>
    pdf.getPage(pageNumber).catch((error: unknown) => {
      onBrokenPage(pageNumber, error)
      throw error
    })

  let standIn: PDFPageProxy | undefined
  try {
    await getPage(1)
  } catch {
    for (let pageNumber = 2; pageNumber <= Math.min(pdf.numPages, 1 + STAND_IN_TRIES) && !standIn; pageNumber++) {
      standIn = await pdf.getPage(pageNumber).catch(() => undefined)
    }
    if (!standIn) return undefined
  }

  let layingOut = false
  const document = new Proxy(pdf, {
    get(target, property) {
      if (property === 'getPage') {
        return (pageNumber: number) => (layingOut && pageNumber === 1 && standIn ? Promise.resolve(standIn) : getPage(pageNumber))
      }
      // Bound to the real document: its methods use private fields, which a Proxy receiver does not have.
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })

  return {
    document,
    show(viewer) {
      layingOut = true
      try {
        viewer.setDocument(document)
      } finally {
        layingOut = false
      }
    },
    laidOut(viewer) {
      const firstView = viewer.getPageView(0)
      if (standIn && firstView?.pdfPage === standIn) firstView.pdfPage = null
    },
  }
}
