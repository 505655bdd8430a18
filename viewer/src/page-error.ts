import { t } from './messages'
/** What a page pdf.js cannot read or draw shows in its place (the other pages stay usable). */
export function pageError(pageNumber: number, downloadUrl: string | null): HTMLElement {
  const box = document.createElement('div')
  box.className = 'page-error'
  const title = document.createElement('p')
  title.className = 'status-title'
  title.textContent = t('viewer.pageError.title', { page: pageNumber })
  const detail = document.createElement('p')
  detail.textContent = t('viewer.pageError.message')
  box.append(title, detail)
  if (downloadUrl) {
    const link = document.createElement('a')
    link.href = downloadUrl
    link.className = 'button'
    link.textContent = t('viewer.downloadPdf')
    box.append(link)
  }
  return box
}
