import type { RoomIndex } from '../../../core/rooms/room-index'
import { html, type SafeHtml } from '../../../lib/html'
import type { Language } from '../../../shared/languages'
import { type PageContext, standInPage } from './pages'

/** A document's size in the language's way of writing numbers and units (KB below a megabyte, MB with one decimal). */
const sizeText = (language: Language, bytes: number) =>
  bytes < 1024 * 1024
    ? new Intl.NumberFormat(language, { style: 'unit', unit: 'kilobyte' }).format(Math.max(1, Math.round(bytes / 1024)))
    : new Intl.NumberFormat(language, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(
        bytes / (1024 * 1024),
      )

/**
 * A room link's index (docs/rooms.md): its folders in the order their first document comes, each document with
 * its page-1 image, title, pages and size, and a filter by title. Plain HTML: a GET form filters (no script), and
 * the images scale to the width of a phone. `base` is the link's path (`/s/<slug>`).
 */
export function roomIndexPage(
  page: Pick<PageContext, 'publicUrl' | 'basePath' | 'manifest' | 'brand' | 't' | 'back'>,
  base: string,
  index: RoomIndex,
  filter: string,
): string {
  // The link's card, for the unfurlers that fetch the page: the room's name and its first document's page 1 (the
  // link's preview.png), nothing more (no description, no document's name).
  const { t } = page
  const image = `${page.publicUrl}${base.slice(page.basePath.length)}/preview.png`
  const card = html`
<meta property="og:type" content="website">
${page.brand.siteName ? html`<meta property="og:site_name" content="${page.brand.siteName}">` : ''}
<meta property="og:title" content="${index.name}">
<meta property="og:image" content="${image}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${index.name}">
<meta name="twitter:image" content="${image}">`
  const folders = new Map<string, RoomIndex['documents']>()
  for (const document of index.documents) folders.set(document.folder, [...(folders.get(document.folder) ?? []), document])
  const sections: SafeHtml[] = [...folders].map(
    ([folder, documents]) =>
      html`<section class="room-folder">${folder === '' ? '' : html`<h2>${folder}</h2>`}<ul class="room-documents">${documents.map(
        (d) =>
          html`<li class="room-document"><a href="${base}/docs/${d.fileId}"><img src="${base}/docs/${d.fileId}/pages/1?w=480" alt="" width="240" loading="lazy"><span class="room-title">${d.title || d.filename}</span></a> <span class="room-facts">${d.pages === null ? '' : `${t('room.pages', { pages: d.pages })} · `}${sizeText(t.language, d.size)}</span></li>`,
      )}</ul></section>`,
  )
  return standInPage(
    page,
    index.name,
    html`<main class="room"><h1>${index.name}</h1>${index.description === '' ? '' : html`<p>${index.description}</p>`}
<form method="get" action="${base}" role="search"><label>${t('room.filter')} <input type="search" name="q" value="${filter}" maxlength="200"></label> <button type="submit">${t('room.filterButton')}</button></form>
${sections.length === 0 ? html`<p>${t('room.noMatch')}</p>` : sections}</main>`,
    card,
  )
}
