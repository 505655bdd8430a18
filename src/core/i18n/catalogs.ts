import type { Language } from '../../shared/languages'
import ar from './messages/ar.json'
import de from './messages/de.json'
import en from './messages/en.json'
import es from './messages/es.json'
import fr from './messages/fr.json'
import it from './messages/it.json'
import ja from './messages/ja.json'
import nl from './messages/nl.json'
import pl from './messages/pl.json'
import ptBR from './messages/pt-BR.json'
import uk from './messages/uk.json'
import zhHans from './messages/zh-Hans.json'

/**
 * The message catalogs, one file a language, in ICU MessageFormat (docs/languages.md). English is the reference:
 * its keys are the keys, and test/i18n/catalogs.test.ts checks every other catalog against it (check-catalogs.ts).
 */
export type MessageKey = keyof typeof en
export type Catalog = Record<string, string>

export const CATALOGS: Record<Language, Catalog> = {
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
