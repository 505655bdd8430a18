import type { Translate } from '../../../core/i18n/translator'
import { html, type SafeHtml } from '../../../lib/html'

/**
 * The viewer's toolbar and find bar, as the share page's HTML carries them (pages.ts renders them on the server,
 * so they are there before any script runs). The viewer binds them by these ids (viewer/src/toolbar.ts,
 * viewer/src/find-bar.ts, viewer/src/keyboard.ts). Every value is HTML-escaped.
 */
const icons = {
  // Previous and next point the way the page reads: mirrored right to left (viewer.css, .icon-flow).
  previous: html`<svg class="icon icon-flow" viewBox="0 0 24 24" aria-hidden="true"><path d="M15 18l-6-6 6-6"/></svg>`,
  next: html`<svg class="icon icon-flow" viewBox="0 0 24 24" aria-hidden="true"><path d="M9 18l6-6-6-6"/></svg>`,
  minus: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12h14"/></svg>`,
  plus: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 5v14M5 12h14"/></svg>`,
  search: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="M20 20l-3.5-3.5"/></svg>`,
  download: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 4v11M7 10l5 5 5-5M5 20h14"/></svg>`,
  up: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 6h6l2 2h8v10H4z"/></svg>`,
  outline: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M4 6h2M9 6h11M4 12h2M9 12h11M4 18h2M9 18h11"/></svg>`,
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
export function roomNavMarkup(t: Translate, basePath: string, nav: RoomNav): SafeHtml {
  const step = (rel: 'prev' | 'next', to: RoomNav['next']) =>
    to
      ? html`<a class="button" rel="${rel}" href="${basePath}${to.path}" title="${t(rel === 'prev' ? 'room.previous' : 'room.next', { title: to.title })}" aria-label="${t(rel === 'prev' ? 'room.previousDocument' : 'room.nextDocument', { title: to.title })}">${rel === 'prev' ? icons.previous : icons.next}</a>`
      : ''
  return html`<nav class="group room-nav" aria-label="${t('room.nav')}"><a class="button" href="${basePath}${nav.index.path}" title="${t('room.back', { name: nav.index.name })}">${icons.up}<span class="label">${nav.index.name}</span></a>${step('prev', nav.previous)}${step('next', nav.next)}</nav>`
}

/**
 * The toolbar (the instance's `brand` mark if any, a room document's `nav`, title, pages, zoom, the outline's button,
 * find, the download button when `download` is its URL, the language `picker`), the find bar and the outline's
 * sidebar, in `t`'s language. The outline's button and sidebar stay hidden until the viewer has read an outline
 * (viewer/src/outline.ts).
 */
export function viewerToolbar({
  t,
  title,
  download,
  brand = '',
  nav = '',
  picker = '',
}: {
  t: Translate
  title: string
  download: string
  brand?: SafeHtml | ''
  nav?: SafeHtml | ''
  picker?: SafeHtml | ''
}): SafeHtml {
  const percent = new Intl.NumberFormat(t.language, { style: 'percent' })
  return html`<header class="toolbar">
  ${brand}${nav}<h1 class="doc-title" title="${title}">${title}</h1>
  <div class="group pages" role="group" aria-label="${t('toolbar.pages')}">
    <button id="previous-page" type="button" title="${t('toolbar.previousPageKey')}" aria-label="${t('toolbar.previousPage')}" disabled>${icons.previous}</button>
    <label class="visually-hidden" for="page-number">${t('toolbar.page')}</label>
    <input id="page-number" type="number" inputmode="numeric" min="1" value="1" disabled>
    <span class="page-of">/ <span id="page-count">–</span></span>
    <button id="next-page" type="button" title="${t('toolbar.nextPageKey')}" aria-label="${t('toolbar.nextPage')}" disabled>${icons.next}</button>
  </div>
  <div class="group zoom" role="group" aria-label="${t('toolbar.zoom')}">
    <button id="zoom-out" class="zoom-steps" type="button" title="${t('toolbar.zoomOutKey')}" aria-label="${t('toolbar.zoomOut')}" disabled>${icons.minus}</button>
    <label class="visually-hidden" for="zoom">${t('toolbar.zoom')}</label>
    <select id="zoom" disabled>
      <option value="auto">${t('toolbar.zoomAuto')}</option>
      <option value="page-width">${t('toolbar.zoomWidth')}</option>
      <option value="page-fit">${t('toolbar.zoomPage')}</option>
      ${[0.5, 1, 1.5, 2].map((scale) => html`<option value="${String(scale)}">${percent.format(scale)}</option>`)}
      <option value="custom" id="zoom-custom" hidden></option>
    </select>
    <button id="zoom-in" class="zoom-steps" type="button" title="${t('toolbar.zoomInKey')}" aria-label="${t('toolbar.zoomIn')}" disabled>${icons.plus}</button>
  </div>
  <div class="group actions">
    <button id="outline-toggle" type="button" title="${t('toolbar.outline')}" aria-label="${t('toolbar.outline')}" aria-controls="outline" aria-expanded="false" hidden>${icons.outline}</button>
    <button id="find-toggle" type="button" title="${t('toolbar.findKey')}" aria-label="${t('toolbar.find')}" aria-controls="find-bar" aria-expanded="false" disabled>${icons.search}</button>
    ${download ? html`<a id="download" class="button primary" href="${download}" title="${t('page.downloadPdf')}">${icons.download}<span class="label">${t('toolbar.download')}</span></a>` : ''}
    ${picker}
  </div>
</header>
<div id="find-bar" class="find-bar" role="search" hidden>
  <label class="visually-hidden" for="find-input">${t('toolbar.find')}</label>
  <input id="find-input" type="search" placeholder="${t('toolbar.find')}" autocomplete="off" spellcheck="false">
  <span id="find-result" aria-live="polite"></span>
  <button id="find-previous" type="button" title="${t('toolbar.previousMatchKey')}" aria-label="${t('toolbar.previousMatch')}">${icons.previous}</button>
  <button id="find-next" type="button" title="${t('toolbar.nextMatchKey')}" aria-label="${t('toolbar.nextMatch')}">${icons.next}</button>
  <button id="find-close" type="button" title="${t('toolbar.closeFindKey')}" aria-label="${t('toolbar.closeFind')}">${icons.close}</button>
</div>
<nav id="outline" class="outline" aria-label="${t('toolbar.outline')}" hidden></nav>`
}
