import { IntlMessageFormat } from 'intl-messageformat'
import type { Catalog } from './catalogs'

/**
 * What is wrong with a set of catalogs, as sentences (none: all is well), against the reference language's:
 * a key a language lacks, a key only it has, a message that is not ICU MessageFormat or is empty, and a message
 * whose placeholders differ from the reference's — another argument name or type, another select's cases, a
 * plural with a case the language's plural rules never pick (one without `other` does not parse). Plural cases themselves may
 * differ (Polish has `few` and `many`, Japanese only `other`). test/i18n/catalogs.test.ts runs it on the
 * shipped catalogs and on planted mistakes.
 */
export function checkCatalogs(catalogs: Record<string, Catalog>, reference = 'en'): string[] {
  const base = catalogs[reference]
  if (!base) return [`there is no ${reference} catalog`]
  const problems: string[] = []
  const shapes = new Map<string, string | null>()
  for (const [key, message] of Object.entries(base)) shapes.set(key, shapeOf(reference, key, message, problems))
  for (const [language, catalog] of Object.entries(catalogs)) {
    if (language === reference) continue
    for (const key of Object.keys(base)) if (!(key in catalog)) problems.push(`${language}: lacks "${key}"`)
    for (const [key, message] of Object.entries(catalog)) {
      if (!shapes.has(key)) {
        problems.push(`${language}: has "${key}", which ${reference} lacks`)
        continue
      }
      const shape = shapeOf(language, key, message, problems)
      const expected = shapes.get(key)
      if (shape !== null && expected !== null && shape !== expected)
        problems.push(`${language}: "${key}" has the placeholders ${shape || '(none)'}, ${reference} has ${expected || '(none)'}`)
    }
  }
  return problems
}

// The element types of intl-messageformat's AST (its parser's TYPE enum).
const ARGUMENT = 1
const NUMBER = 2
const DATE = 3
const TIME = 4
const SELECT = 5
const PLURAL = 6
const TAG = 8

type Element = {
  type: number
  value?: string
  options?: Record<string, { value: Element[] }>
  pluralType?: 'cardinal' | 'ordinal'
  children?: Element[]
}

/** A message's placeholders as one comparable string, or null (and a problem noted) when it cannot be read. */
function shapeOf(language: string, key: string, message: string, problems: string[]): string | null {
  if (typeof message !== 'string' || message.trim() === '') {
    problems.push(`${language}: "${key}" is empty`)
    return null
  }
  let ast: Element[]
  try {
    ast = new IntlMessageFormat(message, language).getAst() as unknown as Element[]
  } catch (error) {
    problems.push(`${language}: "${key}" is not ICU MessageFormat (${error instanceof Error ? error.message : String(error)})`)
    return null
  }
  const found = new Set<string>()
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      const name = element.value ?? ''
      if (element.type === ARGUMENT) found.add(`{${name}}`)
      else if (element.type === NUMBER) found.add(`{${name}, number}`)
      else if (element.type === DATE) found.add(`{${name}, date}`)
      else if (element.type === TIME) found.add(`{${name}, time}`)
      else if (element.type === TAG) {
        found.add(`<${name}>`)
        walk(element.children ?? [])
      } else if (element.type === SELECT || element.type === PLURAL) {
        const cases = Object.keys(element.options ?? {})
        if (element.type === SELECT) found.add(`{${name}, select, ${cases.sort().join('|')}}`)
        else {
          const kind = element.pluralType === 'ordinal' ? 'selectordinal' : 'plural'
          found.add(`{${name}, ${kind}}`)
          const rules = new Intl.PluralRules(language, { type: element.pluralType ?? 'cardinal' }).resolvedOptions()
          const categories = new Set<string>(rules.pluralCategories)
          for (const c of cases)
            if (!c.startsWith('=') && !categories.has(c))
              problems.push(`${language}: "${key}" has the ${kind} case "${c}", which ${language} never picks`)
        }
        for (const option of Object.values(element.options ?? {})) walk(option.value)
      }
    }
  }
  walk(ast)
  return [...found].sort().join(' ')
}
