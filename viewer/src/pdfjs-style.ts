/**
 * Applies pdf.js's viewer stylesheet (400 KB, its icons inlined), which the share page leaves out of its head so
 * that parsing it does not hold back the first paint. It goes in before the page's own stylesheet, so the page's
 * rules still override pdf.js's as when the two were one file. Resolves once it applies; also when it cannot be
 * loaded (the viewer still works, plainer), so a lost stylesheet never leaves a reader at a spinner.
 */
export function applyPdfjsStyle(href: string | undefined): Promise<void> {
  if (!href) return Promise.resolve()
  const link = document.createElement('link')
  link.rel = 'stylesheet'
  link.href = href
  const applied = new Promise<void>((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true })
    link.addEventListener('error', () => resolve(), { once: true })
  })
  document.head.insertBefore(link, document.head.querySelector('link[rel="stylesheet"]'))
  return applied
}
