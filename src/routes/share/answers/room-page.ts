import type { RoomIndex } from '../../../core/rooms/room-index'
import { html, type SafeHtml } from '../../../lib/html'
import { type PageContext, standInPage } from './pages'

const sizeText = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`

/**
 * A room link's index (docs/rooms.md): its folders in the order their first document comes, each document with
 * its page-1 image, title, pages and size, and a filter by title. Plain HTML: a GET form filters (no script), and
 * the images scale to the width of a phone. `base` is the link's path (`/s/<slug>`).
 */
export function roomIndexPage(
  page: Pick<PageContext, 'basePath' | 'manifest' | 'brand'>,
  base: string,
  index: RoomIndex,
  filter: string,
): string {
  const folders = new Map<string, RoomIndex['documents']>()
  for (const document of index.documents) folders.set(document.folder, [...(folders.get(document.folder) ?? []), document])
  const sections: SafeHtml[] = [...folders].map(
    ([folder, documents]) =>
      html`<section class="room-folder">${folder === '' ? '' : html`<h2>${folder}</h2>`}<ul class="room-documents">${documents.map(
        (d) =>
          html`<li class="room-document"><a href="${base}/docs/${d.fileId}"><img src="${base}/docs/${d.fileId}/pages/1?w=480" alt="" width="240" loading="lazy"><span class="room-title">${d.title || d.filename}</span></a> <span class="room-facts">${d.pages === null ? '' : `${d.pages} ${d.pages === 1 ? 'page' : 'pages'} · `}${sizeText(d.size)}</span></li>`,
      )}</ul></section>`,
  )
  return standInPage(
    page,
    index.name,
    html`<main class="room"><h1>${index.name}</h1>${index.description === '' ? '' : html`<p>${index.description}</p>`}
<form method="get" action="${base}" role="search"><label>Filter by title <input type="search" name="q" value="${filter}" maxlength="200"></label> <button type="submit">Filter</button></form>
${sections.length === 0 ? html`<p>No document matches.</p>` : sections}</main>`,
  )
}
