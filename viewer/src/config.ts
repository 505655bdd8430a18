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
