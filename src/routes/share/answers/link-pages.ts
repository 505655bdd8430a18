import type { LinkState } from '../../../core/links/link-state'
import { html } from '../../../lib/html'
import { CODE_MINUTES } from '../../../core/readers/mailed-codes'
import type { MessageKey } from '../../../core/i18n/catalogs'
import type { Translate } from '../../../core/i18n/translator'
import { type StandInContext, standInPage } from './pages'

/**
 * The pages a reader gets instead of a link's document: the 410 of a link that is off, expired or used up,
 * and the password page. Neither names the document in any way (title, description, Open Graph tags,
 * preview image): a link preview fetcher sees a generic page, and so does anyone who is not let in.
 */

const GONE: Record<Exclude<LinkState, 'active'>, { title: MessageKey; message: MessageKey }> = {
  disabled: { title: 'gone.disabled.title', message: 'gone.disabled.message' },
  expired: { title: 'gone.expired.title', message: 'gone.expired.message' },
  used_up: { title: 'gone.usedUp.title', message: 'gone.usedUp.message' },
}

/** The words of a 410 for `state`: a heading and its sentence, which names the day an expired link ended when it is known. */
export function goneWords(t: Translate, state: Exclude<LinkState, 'active'>, expiredAt?: number | null) {
  const keys = GONE[state]
  const message = state === 'expired' && expiredAt != null ? t('gone.expired.messageOn', { expiredAt }) : t(keys.message)
  return { title: t(keys.title), message }
}

/** The password page: a generic title and one form that posts the password back to the page's own address. */
export function passwordPage(page: StandInContext, slug: string, options: { wrong: boolean }): string {
  const action = `${page.basePath}/s/${slug}`
  const { t } = page
  return standInPage(
    page,
    t('password.title'),
    html`<main class="status">
<p class="status-title">${t('password.title')}</p>
<form class="password-form" method="post" action="${action}">
  <p id="password-hint"${options.wrong ? html` class="status-warning" role="alert"` : ''}>${options.wrong ? t('password.wrong') : t('password.hint')}</p>
  <label class="visually-hidden" for="link-password">${t('password.label')}</label>
  <div class="password-row">
    <input id="link-password" name="password" type="password" autocomplete="current-password" required autofocus aria-describedby="password-hint">
    <button class="button" type="submit">${t('gate.open')}</button>
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
export function addressPage(page: StandInContext, slug: string, options: AddressPageOptions): string {
  const action = `${page.basePath}/s/${slug}/reader`
  const { t } = page
  const kept = options.retentionDays > 0 ? t('address.kept', { days: options.retentionDays }) : t('address.keptForever')
  const why = options.verified ? t('address.whyVerified') : t('address.why')
  return standInPage(
    page,
    t('address.title'),
    html`<main class="status">
<p class="status-title">${t('address.title')}</p>
<form class="password-form" method="post" action="${action}">
  ${options.problem ? html`<p class="status-warning" role="alert" id="address-problem">${options.problem}</p>` : ''}
  <p id="address-hint">${why}</p>
  <label for="reader-email">${t('address.label')}</label>
  <div class="password-row">
    <input id="reader-email" name="email" type="email" autocomplete="email" required autofocus value="${options.address ?? ''}" aria-describedby="${options.problem ? 'address-problem ' : ''}address-hint">
    <button class="button" type="submit">${options.verified ? t('address.sendCode') : t('address.continue')}</button>
  </div>
  <p class="status-note">${kept}</p>
</form>
</main>`,
  )
}

/** The code page: the address the code went to, one field for the six digits, a way to get another. */
export function codePage(page: StandInContext, slug: string, options: { address: string; problem?: string }): string {
  const base = `${page.basePath}/s/${slug}`
  const { t } = page
  return standInPage(
    page,
    t('code.title'),
    html`<main class="status">
<p class="status-title">${t('code.title')}</p>
<form class="password-form" method="post" action="${base}/code">
  ${options.problem ? html`<p class="status-warning" role="alert" id="code-problem">${options.problem}</p>` : ''}
  <p id="code-hint">${t('code.hint', { address: options.address, minutes: CODE_MINUTES })}</p>
  <input type="hidden" name="email" value="${options.address}">
  <label for="reader-code">${t('code.label')}</label>
  <div class="password-row">
    <input id="reader-code" name="code" type="text" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autofocus aria-describedby="${options.problem ? 'code-problem ' : ''}code-hint">
    <button class="button" type="submit">${t('gate.open')}</button>
  </div>
</form>
<form method="post" action="${base}/reader"><input type="hidden" name="email" value="${options.address}"><button class="button secondary" type="submit">${t('code.again')}</button></form>
<p><a href="${base}">${t('code.otherAddress')}</a></p>
</main>`,
  )
}

/** The agreement page: the owner's text as they wrote it (escaped, its line breaks kept) and one box to tick. */
export function agreementPage(page: StandInContext, slug: string, agreement: { text: string; version: number }): string {
  const { t } = page
  return standInPage(
    page,
    t('agreement.title'),
    html`<main class="status">
<p class="status-title">${t('agreement.title')}</p>
<div class="agreement-text" tabindex="0" role="document" aria-label="${t('agreement.label')}">${agreement.text}</div>
<form class="password-form" method="post" action="${page.basePath}/s/${slug}/agreement">
  <input type="hidden" name="version" value="${String(agreement.version)}">
  <label class="agreement-accept"><input type="checkbox" name="accept" value="yes" required> ${t('agreement.accept')}</label>
  <button class="button" type="submit">${t('agreement.submit')}</button>
</form>
</main>`,
  )
}
