import type { LinkState } from '../../../core/links/link-state'
import { html } from '../../../lib/html'
import { type PageContext, standInPage } from './pages'

/**
 * The pages a reader gets instead of a link's document: the 410 of a link that is off, expired or used up,
 * and the password page. Neither names the document in any way (title, description, Open Graph tags,
 * preview image): a link preview fetcher sees a generic page, and so does anyone who is not let in.
 */

const GONE: Record<Exclude<LinkState, 'active'>, { title: string; message: string }> = {
  disabled: { title: 'Link turned off', message: 'This link has been turned off.' },
  expired: { title: 'Link expired', message: 'This link has expired.' },
  used_up: { title: 'View limit reached', message: 'This link has reached its view limit.' },
}

/** The words of a 410 for `state`: a heading and its sentence. */
export const goneWords = (state: Exclude<LinkState, 'active'>) => GONE[state]

/** The password page: a generic title and one form that posts the password back to the page's own address. */
export function passwordPage(
  page: Pick<PageContext, 'basePath' | 'manifest' | 'brand'>,
  slug: string,
  options: { wrong: boolean },
): string {
  const action = `${page.basePath}/s/${slug}`
  return standInPage(
    page,
    'Password required',
    html`<main class="status">
<p class="status-title">Password required</p>
<form class="password-form" method="post" action="${action}">
  <p id="password-hint"${options.wrong ? html` class="status-warning" role="alert"` : ''}>${options.wrong ? 'Wrong password. Try again.' : 'Enter the password you were given with this link.'}</p>
  <label class="visually-hidden" for="link-password">Password</label>
  <div class="password-row">
    <input id="link-password" name="password" type="password" autocomplete="current-password" required autofocus aria-describedby="password-hint">
    <button class="button" type="submit">Open</button>
  </div>
</form>
</main>`,
  )
}

/** What the address page says above its form: why it asks, what is kept of the answer, and what went wrong if anything. */
export type AddressPageOptions = { verified: boolean; retentionDays: number; problem?: string; address?: string }

/**
 * The address page of a link that asks for one: one labelled email field, and the notice the owner's asking
 * calls for (they see the address with the visits, for as long as visits are kept).
 */
export function addressPage(page: Pick<PageContext, 'basePath' | 'manifest' | 'brand'>, slug: string, options: AddressPageOptions): string {
  const action = `${page.basePath}/s/${slug}/reader`
  const kept =
    options.retentionDays > 0
      ? `The owner of this document will see your address with your visits, kept for ${options.retentionDays} days.`
      : 'The owner of this document will see your address.'
  const why = options.verified
    ? 'Enter your email address: we will mail you a code to open this document.'
    : 'Enter your email address to open this document.'
  return standInPage(
    page,
    'Your email address',
    html`<main class="status">
<p class="status-title">Your email address</p>
<form class="password-form" method="post" action="${action}">
  ${options.problem ? html`<p class="status-warning" role="alert" id="address-problem">${options.problem}</p>` : ''}
  <p id="address-hint">${why}</p>
  <label for="reader-email">Email address</label>
  <div class="password-row">
    <input id="reader-email" name="email" type="email" autocomplete="email" required autofocus value="${options.address ?? ''}" aria-describedby="${options.problem ? 'address-problem ' : ''}address-hint">
    <button class="button" type="submit">${options.verified ? 'Send code' : 'Continue'}</button>
  </div>
  <p class="status-note">${kept}</p>
</form>
</main>`,
  )
}

/** The code page: the address the code went to, one field for the six digits, a way to get another. */
export function codePage(
  page: Pick<PageContext, 'basePath' | 'manifest' | 'brand'>,
  slug: string,
  options: { address: string; problem?: string },
): string {
  const base = `${page.basePath}/s/${slug}`
  return standInPage(
    page,
    'Check your email',
    html`<main class="status">
<p class="status-title">Check your email</p>
<form class="password-form" method="post" action="${base}/code">
  ${options.problem ? html`<p class="status-warning" role="alert" id="code-problem">${options.problem}</p>` : ''}
  <p id="code-hint">We sent a 6-digit code to ${options.address}. It works for 10 minutes.</p>
  <input type="hidden" name="email" value="${options.address}">
  <label for="reader-code">Code</label>
  <div class="password-row">
    <input id="reader-code" name="code" type="text" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autofocus aria-describedby="${options.problem ? 'code-problem ' : ''}code-hint">
    <button class="button" type="submit">Open</button>
  </div>
</form>
<form method="post" action="${base}/reader"><input type="hidden" name="email" value="${options.address}"><button class="button secondary" type="submit">Mail a new code</button></form>
<p><a href="${base}">Use another address</a></p>
</main>`,
  )
}

/** The agreement page: the owner's text as they wrote it (escaped, its line breaks kept) and one box to tick. */
export function agreementPage(
  page: Pick<PageContext, 'basePath' | 'manifest' | 'brand'>,
  slug: string,
  agreement: { text: string; version: number },
): string {
  return standInPage(
    page,
    'Accept to continue',
    html`<main class="status">
<p class="status-title">Accept to continue</p>
<div class="agreement-text" tabindex="0" role="document" aria-label="Agreement">${agreement.text}</div>
<form class="password-form" method="post" action="${page.basePath}/s/${slug}/agreement">
  <input type="hidden" name="version" value="${String(agreement.version)}">
  <label class="agreement-accept"><input type="checkbox" name="accept" value="yes" required> I have read and accept these terms</label>
  <button class="button" type="submit">Accept and open</button>
</form>
</main>`,
  )
}
