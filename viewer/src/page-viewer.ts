/**
 * What the toolbar and the keyboard drive: pdf.js's PDFViewer for a PDF the reader receives, or the image
 * viewer for a link that does not send its PDF (image-viewer.ts). Zoom values are pdf.js's: "auto", "page-width",
 * "page-fit" or a number.
 */
export type PageViewer = {
  readonly pagesCount: number
  currentPageNumber: number
  readonly currentScale: number
  currentScaleValue: string
  nextPage(): unknown
  previousPage(): unknown
}
