/** What the server put on #app for this document (data attributes: the page has no inline script). */
export type ViewerConfig = {
  fileUrl: string
  downloadUrl: string | null
  /** Base URL of the self-hosted pdf.js assets (worker, cmaps, standard fonts, wasm, ICC profiles). */
  pdfjsBase: string
  title: string
}

export function readConfig(app: HTMLElement): ViewerConfig {
  const data = app.dataset
  if (!data.file || !data.pdfjs) throw new Error('the viewer page is missing its configuration')
  return {
    fileUrl: data.file,
    downloadUrl: data.download || null,
    pdfjsBase: data.pdfjs.endsWith('/') ? data.pdfjs : `${data.pdfjs}/`,
    title: data.title ?? document.title,
  }
}
