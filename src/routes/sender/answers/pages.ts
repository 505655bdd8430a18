import type { ViewerManifest } from '../../../assets/viewer-assets'
import { brandBar, brandIcon, brandStylesheet } from '../../../core/branding/brand-markup'
import type { PageBrand } from '../../../core/branding/page-brand'
import { CODE_MINUTES } from '../../../core/readers/mailed-codes'
import type { RequestRow } from '../../../db/tables'
import { html, type SafeHtml } from '../../../lib/html'
import type { Translate } from '../../../core/i18n/translator'
import { htmlRoot, languagePicker, scriptMessages } from '../../../core/i18n/page-markup'

/**
 * What every sender page is drawn with: where the site lives, the viewer's stylesheet, the branding as it is now,
 * its language (`t`) and its own address (`back`, where the language picker leads back to).
 */
export type SenderPageContext = { basePath: string; manifest: ViewerManifest; brand: PageBrand; t: Translate; back: string }

/** A received file as its receipt shows it. */
export type ReceiptLine = { filename: string; size: number; sha256: string }

function page(context: SenderPageContext, title: string, body: SafeHtml): string {
  return `<!doctype html>\n${html`${htmlRoot(context.t)}
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
${brandIcon(context.brand)}
<link rel="stylesheet" href="${context.basePath}/assets/${context.manifest.style}">${brandStylesheet(context.brand)}
</head>
<body>${brandBar(context.brand)}${body}${languagePicker(context.t, context.basePath, context.back)}</body>
</html>`}\n`
}

/** Words instead of a form: a closed request, a missing one, a refusal. */
export function messagePage(context: SenderPageContext, heading: string, message: string): string {
  return page(context, heading, html`<main class="status"><p class="status-title">${heading}</p><p>${message}</p></main>`)
}

/** The request's password page: one field, posted back to the page's own address. */
export function passwordPage(context: SenderPageContext, slug: string, wrong: boolean): string {
  const { t } = context
  return page(
    context,
    t('password.title'),
    html`<main class="status">
<p class="status-title">${t('password.title')}</p>
<form class="password-form" method="post" action="${context.basePath}/u/${slug}">
  <p id="password-hint"${wrong ? html` class="status-warning" role="alert"` : ''}>${wrong ? t('password.wrong') : t('password.hint')}</p>
  <label class="visually-hidden" for="request-password">${t('password.label')}</label>
  <div class="password-row">
    <input id="request-password" name="password" type="password" autocomplete="current-password" required autofocus aria-describedby="password-hint">
    <button class="button" type="submit">${t('gate.open')}</button>
  </div>
</form>
</main>`,
  )
}

/** A verified-email request's address page: one field; a code is mailed to the address before the form to send. */
export function addressPage(context: SenderPageContext, slug: string, options: { problem?: string; address?: string } = {}): string {
  const { t } = context
  return page(
    context,
    t('address.title'),
    html`<main class="status">
<p class="status-title">${t('address.title')}</p>
<form class="password-form" method="post" action="${context.basePath}/u/${slug}/sender">
  ${options.problem ? html`<p class="status-warning" role="alert" id="address-problem">${options.problem}</p>` : ''}
  <p id="address-hint">${t('sender.addressHint')}</p>
  <label for="sender-email">${t('address.label')}</label>
  <div class="password-row">
    <input id="sender-email" name="email" type="email" autocomplete="email" required autofocus value="${options.address ?? ''}" aria-describedby="${options.problem ? 'address-problem ' : ''}address-hint">
    <button class="button" type="submit">${t('address.sendCode')}</button>
  </div>
</form>
</main>`,
  )
}

/** The code page: the address the code went to, one field for the six digits, a way to get another. */
export function codePage(context: SenderPageContext, slug: string, options: { address: string; problem?: string }): string {
  const base = `${context.basePath}/u/${slug}`
  const { t } = context
  return page(
    context,
    t('code.title'),
    html`<main class="status">
<p class="status-title">${t('code.title')}</p>
<form class="password-form" method="post" action="${base}/code">
  ${options.problem ? html`<p class="status-warning" role="alert" id="code-problem">${options.problem}</p>` : ''}
  <p id="code-hint">${t('code.hint', { address: options.address, minutes: CODE_MINUTES })}</p>
  <input type="hidden" name="email" value="${options.address}">
  <label for="sender-code">${t('code.label')}</label>
  <div class="password-row">
    <input id="sender-code" name="code" type="text" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autofocus aria-describedby="${options.problem ? 'code-problem ' : ''}code-hint">
    <button class="button" type="submit">${t('address.continue')}</button>
  </div>
</form>
<form method="post" action="${base}/sender"><input type="hidden" name="email" value="${options.address}"><button class="button secondary" type="submit">${t('code.again')}</button></form>
<p><a href="${base}">${t('code.otherAddress')}</a></p>
</main>`,
  )
}

/**
 * The sender's page: the request's title and message (each line its own paragraph: plain text, no markup), who
 * asks only when the owner chose to show a name, and a plain multipart form that works without scripts: a name,
 * an address when the request asks for one (the one a code proved, fixed, for a verified-email request), a note,
 * the PDF. Nothing else of the owner's account shows.
 */
export function requestPage(
  context: SenderPageContext,
  request: Pick<RequestRow, 'slug' | 'title' | 'message' | 'ownerName' | 'access' | 'maxFileSize'>,
  proved?: string,
): string {
  const lines = request.message === '' ? [] : request.message.split('\n')
  const asksAddress = request.access !== 'open'
  const { t } = context
  return page(
    context,
    request.title,
    html`<main class="status request-page">
<h1 class="status-title">${request.title}</h1>
${request.ownerName ? html`<p class="status-note">${t('sender.askedBy', { name: request.ownerName })}</p>` : ''}
${lines.map((line) => html`<p>${line}</p>`)}
<form class="request-form" method="post" action="${context.basePath}/u/${request.slug}/files" enctype="multipart/form-data">
  <label for="sender-name">${t('sender.name')}</label>
  <input id="sender-name" name="name" type="text" autocomplete="name" maxlength="200">
  <label for="sender-email">${asksAddress ? t('sender.email') : t('sender.emailOptional')}</label>
  ${
    proved === undefined
      ? html`<input id="sender-email" name="email" type="email" autocomplete="email"${asksAddress ? html` required` : ''}>`
      : html`<input id="sender-email" name="email" type="email" value="${proved}" readonly>`
  }
  <label for="sender-note">${t('sender.note')}</label>
  <textarea id="sender-note" name="note" rows="3"></textarea>
  <label for="sender-file">${t('sender.file', { mib: Math.floor(request.maxFileSize / (1024 * 1024)) || 1 })}</label>
  <div class="drop-zone" hidden><p>${t('sender.drop')}</p><p class="drop-count" aria-live="polite"></p></div>
  <input id="sender-file" name="file" type="file" accept="application/pdf,.pdf" required>
  <button class="button" type="submit">${t('sender.send')}</button>
  <p class="status-note">${t('sender.privacy')}</p>
</form>
<ul class="upload-list" aria-live="polite"></ul>
</main>
${scriptMessages(t, 'senderScript.')}
<script type="module" src="${context.basePath}/assets/${context.manifest.sender}"></script>`,
  )
}

/** What this sender sent, once it is stored, and a way to send another. */
export function receiptPage(context: SenderPageContext, slug: string, files: ReceiptLine[]): string {
  const { t } = context
  return page(
    context,
    t('sender.received'),
    html`<main class="status">
<p class="status-title">${t('sender.received')}</p>
<ul class="receipt">
${files.map((file) => html`<li><strong>${file.filename}</strong>${t('sender.receivedLine', { size: file.size })} <code>${file.sha256}</code></li>`)}
</ul>
<p><a href="${context.basePath}/u/${slug}">${t('sender.another')}</a></p>
</main>`,
  )
}
