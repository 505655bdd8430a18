/**
 * An entry of a PDF's outline (its bookmarks) as the sidebar shows it: its title, the page it opens (absent for an
 * entry that only groups others) and its entries. The server sends these for drawn pages (`/outline`,
 * src/core/previews/pdf-outline.ts); outlineOfPdf makes them from pdf.js's for the PDF viewer.
 */
export type OutlineEntry = { title: string; page?: number; items?: OutlineEntry[] }

/** Bounds against a hostile outline, as the server's: entries shown, nesting, a title's length. */
const MAX_ENTRIES = 2000
const MAX_DEPTH = 12
const MAX_TITLE = 300

/**
 * The outline sidebar (a nav of nested lists, `#outline`, and its toolbar button, `#outline-toggle`, both in the page
 * hidden: src/routes/share/answers/toolbar-markup.ts). A PDF without an outline leaves both hidden. Each entry with
 * a page is a link (Tab and Enter reach and open it) that shows its page; Escape closes the sidebar. It sits on the
 * side the page reads from (the right in Arabic), beside the pages on a wide screen, over them on a phone.
 */
export function showOutline(entries: OutlineEntry[], viewer: { goTo(page: number): void; refit(): void }): void {
  const toggle = document.getElementById('outline-toggle') as HTMLButtonElement | null
  const nav = document.getElementById('outline')
  if (!toggle || !nav || entries.length === 0) return
  nav.replaceChildren(listOf(entries))
  const open = (opened: boolean) => {
    nav.hidden = !opened
    toggle.setAttribute('aria-expanded', String(opened))
    document.body.classList.toggle('outline-open', opened)
    viewer.refit() // the pages' room changed: a fitting zoom (fit width, auto) fits again
  }
  toggle.hidden = false
  toggle.addEventListener('click', () => open(nav.hidden === true))
  nav.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-page]')
    if (!link) return
    event.preventDefault()
    viewer.goTo(Number(link.dataset.page))
    if (matchMedia('(max-width: 699px)').matches) open(false) // over the pages on a phone: out of the way once used
  })
  nav.addEventListener('keydown', (event) => {
    // The viewer's page keys (arrows, Home, End, n, p) stay out of the list; its Ctrl/⌘ shortcuts (find, zoom) do not.
    if (!event.ctrlKey && !event.metaKey) event.stopPropagation()
    if (event.key !== 'Escape') return
    open(false)
    toggle.focus()
  })
}

function listOf(entries: OutlineEntry[]): HTMLUListElement {
  const list = document.createElement('ul')
  for (const entry of entries) {
    const item = document.createElement('li')
    const label = document.createElement(entry.page ? 'a' : 'span')
    label.textContent = entry.title
    label.dir = 'auto' // the PDF's own words read in their own direction, whatever the page's
    if (entry.page) {
      ;(label as HTMLAnchorElement).href = `#page=${entry.page}`
      label.dataset.page = String(entry.page)
    }
    item.append(label)
    if (entry.items?.length) item.append(Object.assign(listOf(entry.items), { className: 'nested' }))
    list.append(item)
  }
  return list
}

/** pdf.js's outline item, the parts read here (`getOutline()`). */
type PdfjsOutlineItem = { title: string; dest: string | unknown[] | null; items: PdfjsOutlineItem[] }
type PdfjsDocument = {
  numPages: number
  getOutline(): Promise<PdfjsOutlineItem[] | null>
  getDestination(id: string): Promise<unknown[] | null>
  getPageIndex(ref: unknown): Promise<number>
}

/**
 * The PDF's outline as pdf.js reads it, with each entry's destination resolved to its page, and kept to what the
 * server's outline keeps: entries to the document's own pages, and groups of them (web addresses, other documents
 * and scripts left out), within the same bounds.
 */
export async function outlineOfPdf(pdf: PdfjsDocument): Promise<OutlineEntry[]> {
  let count = 0
  const pageOf = async (dest: PdfjsOutlineItem['dest']): Promise<number | undefined> => {
    const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest
    const ref = explicit?.[0]
    if (ref === undefined || ref === null) return undefined
    const index = typeof ref === 'number' ? ref : await pdf.getPageIndex(ref).catch(() => -1)
    return index >= 0 && index < pdf.numPages ? index + 1 : undefined
  }
  const read = async (items: PdfjsOutlineItem[], depth: number): Promise<OutlineEntry[]> => {
    const entries: OutlineEntry[] = []
    for (const item of items) {
      if (++count > MAX_ENTRIES) break
      const page = await pageOf(item.dest).catch(() => undefined)
      const children = depth < MAX_DEPTH ? await read(item.items ?? [], depth + 1) : []
      const title = (item.title ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE)
      if (!title || (page === undefined && children.length === 0)) continue
      entries.push({ title, ...(page !== undefined && { page }), ...(children.length > 0 && { items: children }) })
    }
    return entries
  }
  return read((await pdf.getOutline()) ?? [], 1)
}
