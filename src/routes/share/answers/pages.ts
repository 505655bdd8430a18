import type { ViewerManifest } from '../../../assets/viewer-assets'
import type { SharedLink } from '../../../core/links/find-shared-link'
import { etagOf } from '../../../http/send-file'
import { html, type SafeHtml } from '../../../lib/html'
import { type RoomNav, roomNavMarkup, viewerToolbar } from './toolbar-markup'
import { CSS_PX_PER_POINT, MAX_AUTO_SCALE, PAGE_BORDERS_PX, PAGE_GUTTER_PX, PAGE_WIDTHS, type PageSize } from '../../../shared/page-layout'
import type { PageBrand } from '../../../core/branding/page-brand'
import { brandBar, brandIcon, brandMark, brandStylesheet } from '../../../core/branding/brand-markup'
import type { Translate } from '../../../core/i18n/translator'
import { htmlRoot, languagePicker } from '../../../core/i18n/page-markup'

export type PageContext = {
  /** Absolute base of every URL in tags that leave the site (og:url, og:image, canonical). */
  publicUrl: string
  /** Path prefix of the public URL ("" or e.g. "/docs"), for links within the site. */
  basePath: string
  manifest: ViewerManifest
  /** The instance's branding as it is now (docs/operations.md, Branding). */
  brand: PageBrand
  /** The page's language (docs/languages.md): its words, and its `lang` and `dir`. */
  t: Translate
  /** The page's own address (under the base path), where the language picker leads back to. */
  back: string
  /** The words of the viewer script, in the page's language (core/i18n/page-markup.ts, scriptMessages). */
  scriptMessages: () => SafeHtml
}

/** What a page that stands in for a document is drawn with. */
export type StandInContext = Pick<PageContext, 'basePath' | 'manifest' | 'brand' | 't' | 'back'>

/** The title readers see: the file's title, or its filename when the title is empty. */
export function displayTitle(row: Pick<SharedLink['file'], 'title' | 'filename'>): string {
  return row.title || row.filename
}

/**
 * The share page. The head is complete on the server (title, description, canonical, Open Graph and Twitter
 * card, robots), so link unfurlers never need JavaScript; every value is HTML-escaped. The viewer script
 * reads its settings from data attributes: the page has no inline script, which the CSP forbids. A tracked,
 * counted visit also gets its reading token (`data-visit`) and where to send reading batches (`data-reading`);
 * without them the viewer reports nothing. An `ungranted` page (a limited link's page for a request that was not
 * counted) says so (`data-ungranted`): its bytes are closed, and the viewer asks again once instead of loading.
 */
export function viewerPage(
  { link, file }: SharedLink,
  page: PageContext,
  options: {
    reading?: { token: string } | null
    ungranted?: boolean
    firstPage?: PageSize | null
    images?: { sizes: string } | { problem: 'unreadable' | 'password' } | null
    /** A document of a room link: its routes are under its own path, and the page leads back to the room and on. */
    room?: RoomNav
  } = {},
): string {
  const { reading = null, ungranted = false, room } = options
  const path = room ? room.path : `/s/${link.slug}`
  const base = `${page.basePath}${path}`
  const first = options.firstPage && !ungranted ? firstPageImage(`${base}/pages/1`, options.firstPage) : null
  const title = displayTitle(file)
  const { brand, t } = page
  const description =
    file.description || (brand.siteName ? t('page.description', { filename: file.filename, siteName: brand.siteName }) : file.filename)
  const shareUrl = `${page.publicUrl}${path}`
  const assets = `${page.basePath}/assets`
  const previewUrl = `${shareUrl}/preview.png?v=${file.sha256.slice(0, 12)}`
  const download = link.allowDownload ? `${base}/download` : ''

  return `<!doctype html>\n${html`${htmlRoot(t)}
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>${title}</title>
<meta name="description" content="${description}">
${link.searchEngineVisible ? '' : html`<meta name="robots" content="noindex, nofollow">`}
<link rel="canonical" href="${shareUrl}">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
${brandIcon(brand)}
<meta property="og:type" content="website">
${brand.siteName ? html`<meta property="og:site_name" content="${brand.siteName}">` : ''}
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${shareUrl}">
<meta property="og:image" content="${previewUrl}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:image:alt" content="${t('page.firstPageOf', { title })}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description}">
<meta name="twitter:image" content="${previewUrl}">
<link rel="stylesheet" href="${assets}/${page.manifest.style}">${brandStylesheet(brand)}
${first ? html`<link rel="preload" as="image" href="${first.src}" imagesrcset="${first.srcset}" imagesizes="${first.sizes}" fetchpriority="high">` : ''}
<script type="module" src="${assets}/${page.manifest.boot}"></script>
</head>
<body data-download="${link.allowDownload ? 'on' : 'off'}"${link.allowDownload ? '' : html` data-print-off="${t('page.printOff')}"`}>
<div id="app" ${
    options.images
      ? html`data-mode="images" data-pages-url="${base}/pages/" data-download="${download}" ${'sizes' in options.images ? html`data-sizes="${options.images.sizes}"` : html`data-problem="${options.images.problem}"`}`
      : html`data-file="${base}/file" data-size="${file.size}" data-etag="${etagOf(file.sha256)}" data-download="${download}" data-pdfjs="${assets}/${page.manifest.pdfjs}/"`
  } data-title="${title}" data-viewer="${assets}/${page.manifest.script}" data-pdfjs-style="${assets}/${page.manifest.pdfjsStyle}"${reading ? html` data-visit="${reading.token}" data-reading="${base}/reading"` : ''}${ungranted ? html` data-ungranted="1"` : ''}>
${viewerToolbar({ t, title, download, brand: brandMark(brand), nav: room ? roomNavMarkup(t, page.basePath, room) : '', picker: languagePicker(t, page.basePath, page.back) })}
<div id="viewer-container" tabindex="0">${
    first
      ? html`<div id="first-page" class="pdfViewer"><div class="page"><img src="${first.src}" srcset="${first.srcset}" sizes="${first.sizes}" width="${String(first.width)}" height="${String(first.height)}" alt="${t('page.pageOneOf', { title })}" fetchpriority="high" elementtiming="first-page"></div></div>`
      : ''
  }<div id="viewer" class="pdfViewer"></div></div>
${first ? html`<div id="status" class="status" role="status" aria-live="polite" hidden></div>` : html`<div id="status" class="status" role="status" aria-live="polite"><div class="spinner"></div><p>${t('page.loading')}</p></div>`}
</div>
<noscript><p class="${first ? 'noscript-bar' : 'status'}">${first ? t('page.noscriptFirst') : t('page.noscript')}${link.allowDownload ? html` <a href="${download}">${t('page.downloadPdf')}</a>` : ''}</p></noscript>
${page.scriptMessages()}
</body>
</html>`}\n`
}

/**
 * Page 1 as the server draws it, named in the page itself so that it is on screen before any script runs: as
 * wide as pdf.js will draw the page (its "auto" zoom: the page's box at 125 % or the window less the gutter,
 * whichever is narrower, less its borders), from the ladder of widths the server draws (the browser picks the
 * one its screen needs), with its size reserved by `width` and `height` so nothing moves when it arrives.
 */
function firstPageImage(pageUrl: string, size: PageSize) {
  // pdf.js's page box is the page at that zoom, its drawing the box less the borders on both axes.
  const box = Math.max(PAGE_BORDERS_PX + 1, Math.round(size.width * CSS_PX_PER_POINT * MAX_AUTO_SCALE))
  const width = box - PAGE_BORDERS_PX
  const height = Math.max(1, Math.round(size.height * CSS_PX_PER_POINT * MAX_AUTO_SCALE) - PAGE_BORDERS_PX)
  return {
    src: `${pageUrl}?w=800`,
    srcset: PAGE_WIDTHS.map((w) => `${pageUrl}?w=${w} ${w}w`).join(', '),
    sizes: `(max-width: ${box + PAGE_GUTTER_PX}px) calc(100vw - ${PAGE_GUTTER_PX + PAGE_BORDERS_PX}px), ${width}px`,
    width,
    height,
  }
}

/**
 * A page that stands in for a document (404, 403, 410, the password page): no script, nothing indexed, no
 * referrer, and no word of any document unless `body` says it.
 */
export function standInPage(
  page: StandInContext,
  title: string,
  body: SafeHtml,
  /** More of the head: a room's index has its link card. */
  head: SafeHtml | '' = '',
): string {
  return `<!doctype html>\n${html`${htmlRoot(page.t)}
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
${brandIcon(page.brand)}
<link rel="stylesheet" href="${page.basePath}/assets/${page.manifest.style}">${brandStylesheet(page.brand)}${head}
</head>
<body>${brandBar(page.brand)}${body}${languagePicker(page.t, page.basePath, page.back)}</body>
</html>`}\n`
}

/** A small page for 404, 403 and 410 answers on /s/*: the reader gets words, not JSON. */
export function messagePage(page: StandInContext, heading: string, message: string): string {
  return standInPage(page, heading, html`<main class="status"><p class="status-title">${heading}</p><p>${message}</p></main>`)
}
