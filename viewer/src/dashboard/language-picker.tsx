import { LANGUAGE_NAMES, LANGUAGES } from '../../../src/shared/languages'
import { apiBase } from './api'
import { language, t } from './i18n'

const SITE = apiBase.replace(/\/api$/, '')

/**
 * The dashboard's language picker, in its footer (docs/languages.md, The dashboard): the readers' pages' plain links
 * (`/language/<tag>?back=/app`), which set the cookie `pdfshare_lang` (HttpOnly: no script may set it) and lead back
 * to the dashboard; the link carries the page's #route, which the redirect keeps, and the tab's session stays in
 * sessionStorage. Each language is named in itself, in its own `lang`.
 */
export function LanguagePicker(props: { hash: string }) {
  const back = `?back=${encodeURIComponent(`${SITE}/app`)}${props.hash}`
  return (
    <footer class="page-foot">
      <details class="language-picker">
        <summary>
          {t('language.label')}: <span lang={language}>{LANGUAGE_NAMES[language as keyof typeof LANGUAGE_NAMES] ?? language}</span>
        </summary>
        <ul>
          {LANGUAGES.map((tag) => (
            <li key={tag}>
              <a
                class="language-link"
                href={`${SITE}/language/${tag}${back}`}
                hrefLang={tag}
                lang={tag}
                aria-current={tag === language ? 'true' : undefined}
              >
                {LANGUAGE_NAMES[tag]}
              </a>
            </li>
          ))}
        </ul>
      </details>
    </footer>
  )
}
