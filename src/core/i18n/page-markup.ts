import { html, SafeHtml } from '../../lib/html'
import { directionOf, LANGUAGE_NAMES, LANGUAGES } from '../../shared/languages'
import { CATALOGS } from './catalogs'
import type { Translate } from './translator'

/**
 * The pieces of a reader's page that say its language (docs/languages.md): the `<html>` tag with `lang` and `dir`,
 * the picker, and the words the viewer script shows. Here, below the routes, because the share pages and the file
 * request's pages both draw them.
 */

/** The page's root element: its language and writing direction (Arabic is right to left). */
export const htmlRoot = (t: Translate): SafeHtml => html`<html lang="${t.language}" dir="${directionOf(t.language)}">`

const GLOBE = html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z"/></svg>`

/**
 * The language picker: a disclosure of plain links, so it works without any script and under a CSP that lets no
 * form leave the page. Each link (`/language/<tag>?back=<path>`, routes/language/index.ts) sets the cookie and
 * leads back to `back`, the page's own address. Each language is named in itself, in its own `lang`.
 */
export function languagePicker(t: Translate, basePath: string, back: string): SafeHtml {
  const query = `?back=${encodeURIComponent(back)}`
  return html`<details class="language-picker"><summary title="${t('picker.label')}">${GLOBE}<span class="visually-hidden">${t('picker.label')}: </span><span class="language-name">${LANGUAGE_NAMES[t.language]}</span></summary><ul>${LANGUAGES.map(
    (tag) =>
      html`<li><a href="${basePath}/language/${tag}${query}" hreflang="${tag}" lang="${tag}"${tag === t.language ? html` aria-current="true"` : ''}>${LANGUAGE_NAMES[tag]}</a></li>`,
  )}</ul></details>`
}

/**
 * The messages a page's script shows (the keys under `prefix`: `viewer.` for the share page's, `senderScript.` for
 * the file request's), as the JSON of a data block in the page (`<script type="application/json"
 * id="viewer-messages">`, which no CSP forbids: it never runs): the script formats them (viewer/src/messages.ts)
 * and has no words of its own. `<` is written as \u003c, so no message can close the block.
 */
export function scriptMessages(t: Translate, prefix: 'viewer.' | 'senderScript.'): SafeHtml {
  const own = CATALOGS[t.language]
  const messages = Object.fromEntries(
    Object.keys(CATALOGS.en)
      .filter((key) => key.startsWith(prefix))
      .map((key) => [key, own[key] ?? CATALOGS.en[key as keyof typeof CATALOGS.en]]),
  )
  return new SafeHtml(`<script type="application/json" id="viewer-messages">${JSON.stringify(messages).replace(/</g, '\\u003c')}</script>`)
}
