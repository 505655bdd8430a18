/** What a page pdf.js cannot read or draw shows in its place (the other pages stay usable). */
export function pageError(pageNumber: number, downloadUrl: string | null): HTMLElement {
  const box = document.createElement('div')
  box.className = 'page-error'
  const title = document.createElement('p')
  title.className = 'status-title'
  title.textContent = `Page ${pageNumber} cannot be displayed`
  const detail = document.createElement('p')
  detail.textContent = 'Its data in the PDF is damaged.'
  box.append(title, detail)
  if (downloadUrl) {
    const link = document.createElement('a')
    link.href = downloadUrl
    link.className = 'button'
    link.textContent = 'Download the PDF'
    box.append(link)
  }
  return box
}
