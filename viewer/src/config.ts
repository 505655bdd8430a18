import { decodePageSizes, type PageSize } from '../../src/shared/page-layout'

/** What the server put on #app for this document (data attributes: the page has no inline script). */
export type ViewerConfig = {
  fileUrl: string
  /** Exact size in bytes and strong ETag of the PDF, so ranges can be fetched without a first full request. */
  fileSize: number
  etag: string
  downloadUrl: string | null
  /** Base URL of the self-hosted pdf.js assets (worker, cmaps, standard fonts, wasm, ICC profiles). */
  pdfjsBase: string
  title: string
}

/**
 * A link that does not send its PDF (`data-mode="images"`): where its pages are drawn (`<pagesUrl><n>?w=` and
 * `<pagesUrl><n>/text`) and every page's size in points (`data-sizes`, as the server keeps them).
 */
export type ImagesConfig = {
  pagesUrl: string
  /** Undefined when the server could not read them: `problem` says why (`password`: PDFium needs one). */
  sizes: PageSize[] | undefined
  problem: 'unreadable' | 'password' | undefined
  title: string
}

export function readImagesConfig(app: HTMLElement): ImagesConfig | undefined {
  const data = app.dataset
  if (data.mode !== 'images' || !data.pagesUrl) return undefined
  const sizes = data.sizes === undefined ? undefined : decodePageSizes(data.sizes)
  const problem = data.problem === 'password' ? 'password' : sizes === undefined ? 'unreadable' : undefined
  return { pagesUrl: data.pagesUrl, sizes, problem, title: data.title ?? document.title }
}

export function readConfig(app: HTMLElement): ViewerConfig {
  const data = app.dataset
  if (!data.file || !data.pdfjs || !data.size || !data.etag) throw new Error('the viewer page is missing its configuration')
  return {
    fileUrl: data.file,
    fileSize: Number(data.size),
    etag: data.etag,
    downloadUrl: data.download || null,
    pdfjsBase: data.pdfjs.endsWith('/') ? data.pdfjs : `${data.pdfjs}/`,
    title: data.title ?? document.title,
  }
}
