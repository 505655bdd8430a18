import { describe, expect, test } from 'bun:test'
import { CATALOGS, type MessageKey } from '../../src/core/i18n/catalogs'
import { checkCatalogs } from '../../src/core/i18n/check-catalogs'
import { DASHBOARD_CATALOGS } from '../../src/core/i18n/dashboard-catalogs'
import { IntlMessageFormat } from 'intl-messageformat'
import { translator } from '../../src/core/i18n/translator'
import { LANGUAGES } from '../../src/shared/languages'

// A value for every placeholder the catalogs name.
const VALUES = {
  filename: 'a.pdf',
  siteName: 'Acme',
  title: 'T',
  name: 'N',
  address: 'a@b.c',
  why: 'x',
  sha256: 'ab',
  site: 'https://share.example',
  code: '012345',
  // The owners' notifications (notify.*).
  who: 'ann@example.test',
  document: 'Deck',
  kind: 'view',
  via: 'labelled',
  label: 'Board',
  room: 'Series B',
  counted: 'yes',
  request: 'Statements',
  reader: 'bob@example.test',
  names: 'a@b.c, d@e.f',
  // The mails to accounts (mail.reset.*, mail.invitation.*, mail.email.*, mail.admin.*, mail.test.*).
  url: 'https://share.example/app#/reset/abc',
  inviter: 'root',
  team: 'Sales',
  role: 'editor',
  email: 'new@example.test',
  admin: 'root',
  ssoEmail: 'sso@example.test',
}
const INSTANTS = { at: Date.UTC(2026, 10, 25, 9, 5), from: Date.UTC(2026, 10, 25, 9), until: Date.UTC(2026, 10, 25, 10) }
const NUMBERS = [
  'pages',
  'days',
  'minutes',
  'tries',
  'progress',
  'seconds',
  'page',
  'current',
  'total',
  'scale',
  'mib',
  'size',
  'count',
  'status',
  'read',
  'documents',
  'views',
  'downloads',
  'acceptances',
  'files',
  'more',
  'hours',
  'passkeys',
]

// docs/languages.md, "The check": every language has exactly English's keys, each message is ICU MessageFormat,
// and its placeholders are English's.
describe('the message catalogs', () => {
  test('there is one catalog a language, and they agree with English', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...LANGUAGES].sort())
    expect(checkCatalogs(CATALOGS)).toEqual([])
  })

  test('every message formats in its language, with plurals and numbers through Intl', () => {
    for (const language of LANGUAGES) {
      const t = translator(language)
      for (const key of Object.keys(CATALOGS.en) as MessageKey[]) {
        const text = t(key, { ...VALUES, ...Object.fromEntries(NUMBERS.map((n) => [n, 3])), expiredAt: Date.UTC(2026, 0, 2), ...INSTANTS })
        expect(text.length).toBeGreaterThan(0)
      }
    }
    expect(translator('en')('code.wrong', { tries: 1 })).toBe('Wrong code. 1 try left.')
    expect(translator('en')('code.wrong', { tries: 3 })).toBe('Wrong code. 3 tries left.')
  })
})

describe('the check finds planted mistakes', () => {
  const copy = () => structuredClone(CATALOGS) as Record<string, Record<string, string>>

  test('a key missing in a language', () => {
    const catalogs = copy()
    delete catalogs.de!['gate.open']
    expect(checkCatalogs(catalogs)).toEqual(['de: lacks "gate.open"'])
  })

  test('a key English lacks', () => {
    const catalogs = copy()
    catalogs.fr!['gate.openNow'] = 'Ouvrir'
    expect(checkCatalogs(catalogs)).toEqual(['fr: has "gate.openNow", which en lacks'])
  })

  test('a placeholder renamed, a plural turned into a plain argument, a select with other cases', () => {
    const catalogs = copy()
    catalogs.ja!['code.hint'] = '{email} に6桁のコードを送りました。{minutes}分間有効です。'
    expect(checkCatalogs(catalogs)).toEqual(['ja: "code.hint" has the placeholders {email} {minutes}, en has {address} {minutes, plural}'])
    const selects = { en: { 'x.y': '{kind, select, a {A} other {O}}' }, de: { 'x.y': '{kind, select, b {B} other {O}}' } }
    expect(checkCatalogs(selects)).toEqual(['de: "x.y" has the placeholders {kind, select, b|other}, en has {kind, select, a|other}'])
  })

  test('a plural without other, a plural case the language never picks, a message that does not parse, an empty one', () => {
    const catalogs = copy()
    catalogs.pl!['room.pages'] = '{pages, plural, one {# strona} few {# strony}}'
    catalogs.ja!['room.pages'] = '{pages, plural, one {#ページ} other {#ページ}}'
    catalogs.uk!['code.label'] = 'Код {'
    catalogs.ar!['code.label'] = ' '
    const problems = checkCatalogs(catalogs)
    expect(problems).toContain('pl: "room.pages" is not ICU MessageFormat (MISSING_OTHER_CLAUSE)')
    expect(problems).toContain('ja: "room.pages" has the plural case "one", which ja never picks')
    expect(problems.some((p) => p.startsWith('uk: "code.label" is not ICU MessageFormat'))).toBe(true)
    expect(problems).toContain('ar: "code.label" is empty')
  })
})

// docs/languages.md, The dashboard: its catalogs, a namespace of their own, are checked as the readers' are.
describe("the dashboard's catalogs", () => {
  test('there is one a language, and they agree with English', () => {
    expect(Object.keys(DASHBOARD_CATALOGS).sort()).toEqual([...LANGUAGES].sort())
    expect(Object.keys(DASHBOARD_CATALOGS.en).length).toBeGreaterThan(100)
    expect(checkCatalogs(DASHBOARD_CATALOGS)).toEqual([])
  })

  test('every message formats in its language, whatever its values', () => {
    // Any value a message names: a number (plurals, numbers, dates) that selects `other` in a select.
    const values = new Proxy({}, { get: () => 3, has: () => true })
    for (const language of LANGUAGES)
      for (const [key, message] of Object.entries(DASHBOARD_CATALOGS[language]))
        expect(String(new IntlMessageFormat(message, language).format(values)).length, `${language} ${key}`).toBeGreaterThan(0)
  })

  test('a planted missing key and a planted placeholder mismatch are found', () => {
    const catalogs = structuredClone(DASHBOARD_CATALOGS) as Record<string, Record<string, string>>
    delete catalogs.de!['nav.files']
    catalogs.ar!['signIn.withSso'] = 'سجّل الدخول عبر {provider}'
    expect(checkCatalogs(catalogs)).toEqual([
      'de: lacks "nav.files"',
      'ar: "signIn.withSso" has the placeholders {provider}, en has {name}',
    ])
  })
})
