import type { Language } from '../../shared/languages'
import type { Catalog } from './catalogs'
import ar from './dashboard/ar.json'
import de from './dashboard/de.json'
import en from './dashboard/en.json'
import es from './dashboard/es.json'
import fr from './dashboard/fr.json'
import it from './dashboard/it.json'
import ja from './dashboard/ja.json'
import nl from './dashboard/nl.json'
import pl from './dashboard/pl.json'
import ptBR from './dashboard/pt-BR.json'
import uk from './dashboard/uk.json'
import zhHans from './dashboard/zh-Hans.json'

/**
 * The dashboard's messages, a namespace of their own (docs/languages.md, The dashboard): one file a language in
 * src/core/i18n/dashboard/, ICU MessageFormat, English the reference. The server puts the one language the page
 * speaks in the page; the dashboard's script formats them (viewer/src/dashboard/i18n.ts) and takes its keys' type
 * from en.json. test/i18n/catalogs.test.ts checks them as it checks the readers' catalogs.
 */
export const DASHBOARD_CATALOGS: Record<Language, Catalog> = {
  en,
  de,
  fr,
  es,
  it,
  'pt-BR': ptBR,
  nl,
  pl,
  ja,
  'zh-Hans': zhHans,
  ar,
  uk,
}

/**
 * `language`'s dashboard messages as the JSON of a data block (`<script type="application/json"
 * id="dashboard-messages">`: it never runs, so the dashboard's CSP allows it), English's for any key it lacks.
 * `<` is written as \u003c, so no message can close the block.
 */
export function dashboardMessagesJson(language: Language): string {
  const messages = { ...DASHBOARD_CATALOGS.en, ...DASHBOARD_CATALOGS[language] }
  return JSON.stringify(messages).replace(/</g, '\\u003c')
}
