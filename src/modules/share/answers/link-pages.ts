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
export function passwordPage(page: Pick<PageContext, 'basePath' | 'manifest'>, slug: string, options: { wrong: boolean }): string {
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
