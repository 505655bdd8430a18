import { html, type SafeHtml } from '../../../lib/html'

/**
 * The viewer's toolbar and find bar, as the share page's HTML carries them (pages.ts renders them on the server,
 * so they are there before any script runs). The viewer binds them by these ids (viewer/src/toolbar.ts,
 * viewer/src/find-bar.ts, viewer/src/keyboard.ts). Every value is HTML-escaped.
 */
const icons = {
  previous: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M15 18l-6-6 6-6"/></svg>`,
  next: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M9 18l6-6-6-6"/></svg>`,
  minus: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12h14"/></svg>`,
  plus: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 5v14M5 12h14"/></svg>`,
  search: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="M20 20l-3.5-3.5"/></svg>`,
  download: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 4v11M7 10l5 5 5-5M5 20h14"/></svg>`,
  up: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 6h6l2 2h8v10H4z"/></svg>`,
  close: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18"/></svg>`,
}

/**
 * Where a room link's document page leads (paths under the site's base path): back to the room's index, and to
 * the previous and next documents in the room's order (null at either end).
 */
export type RoomNav = {
  /** The document's own path, `/s/<slug>/docs/<fileId>`: its routes are under it. */
  path: string
  index: { path: string; name: string }
  previous: { path: string; title: string } | null
  next: { path: string; title: string } | null
}

/** A room document's way back and on: plain links, so they work before (and without) any script. */
export function roomNavMarkup(basePath: string, nav: RoomNav): SafeHtml {
  const step = (rel: 'prev' | 'next', to: RoomNav['next']) =>
    to
      ? html`<a class="button" rel="${rel}" href="${basePath}${to.path}" title="${`${rel === 'prev' ? 'Previous' : 'Next'}: ${to.title}`}" aria-label="${`${rel === 'prev' ? 'Previous' : 'Next'} document: ${to.title}`}">${rel === 'prev' ? icons.previous : icons.next}</a>`
      : ''
  return html`<nav class="group room-nav" aria-label="Room"><a class="button" href="${basePath}${nav.index.path}" title="${`Back to ${nav.index.name}`}">${icons.up}<span class="label">${nav.index.name}</span></a>${step('prev', nav.previous)}${step('next', nav.next)}</nav>`
}

/**
 * The toolbar (the instance's `brand` mark if any, a room document's `nav`, title, pages, zoom, find, and the
 * download button when `download` is its URL) and the find bar.
 */
export function viewerToolbar({
  title,
  download,
  brand = '',
  nav = '',
}: {
  title: string
  download: string
  brand?: SafeHtml | ''
  nav?: SafeHtml | ''
}): SafeHtml {
  return html`<header class="toolbar">
  ${brand}${nav}<h1 class="doc-title" title="${title}">${title}</h1>
  <div class="group pages" role="group" aria-label="Pages">
    <button id="previous-page" type="button" title="Previous page (p)" aria-label="Previous page" disabled>${icons.previous}</button>
    <label class="visually-hidden" for="page-number">Page</label>
    <input id="page-number" type="number" inputmode="numeric" min="1" value="1" disabled>
    <span class="page-of">/ <span id="page-count">–</span></span>
    <button id="next-page" type="button" title="Next page (n)" aria-label="Next page" disabled>${icons.next}</button>
  </div>
  <div class="group zoom" role="group" aria-label="Zoom">
    <button id="zoom-out" class="zoom-steps" type="button" title="Zoom out (−)" aria-label="Zoom out" disabled>${icons.minus}</button>
    <label class="visually-hidden" for="zoom">Zoom</label>
    <select id="zoom" disabled>
      <option value="auto">Auto</option>
      <option value="page-width">Fit width</option>
      <option value="page-fit">Fit page</option>
      <option value="0.5">50%</option>
      <option value="1">100%</option>
      <option value="1.5">150%</option>
      <option value="2">200%</option>
      <option value="custom" id="zoom-custom" hidden></option>
    </select>
    <button id="zoom-in" class="zoom-steps" type="button" title="Zoom in (+)" aria-label="Zoom in" disabled>${icons.plus}</button>
  </div>
  <div class="group actions">
    <button id="find-toggle" type="button" title="Find in document (Ctrl+F)" aria-label="Find in document" aria-controls="find-bar" aria-expanded="false" disabled>${icons.search}</button>
    ${download ? html`<a id="download" class="button primary" href="${download}" title="Download the PDF">${icons.download}<span class="label">Download</span></a>` : ''}
  </div>
</header>
<div id="find-bar" class="find-bar" role="search" hidden>
  <label class="visually-hidden" for="find-input">Find in document</label>
  <input id="find-input" type="search" placeholder="Find in document" autocomplete="off" spellcheck="false">
  <span id="find-result" aria-live="polite"></span>
  <button id="find-previous" type="button" title="Previous match (Shift+Enter)" aria-label="Previous match">${icons.previous}</button>
  <button id="find-next" type="button" title="Next match (Enter)" aria-label="Next match">${icons.next}</button>
  <button id="find-close" type="button" title="Close (Esc)" aria-label="Close find">${icons.close}</button>
</div>`
}
