import { describe, expect, test } from 'bun:test'
import { chooseLanguage, negotiate, parseAcceptLanguage } from '../../src/core/i18n/negotiate'

describe('Accept-Language', () => {
  test('ranges by q, then in the order written; q=0, * and malformed ranges left out', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de-AT, en;q=0.8, *;q=0.1, it;q=0, x_y')).toEqual(['de-at', 'en', 'fr'])
    expect(parseAcceptLanguage(null)).toEqual([])
    expect(parseAcceptLanguage('de;q=abc, nl;q=2')).toEqual([])
  })

  test('exact tags, then the language alone, with the fallbacks docs/languages.md names', () => {
    expect(negotiate('de-AT,de;q=0.9')).toBe('de')
    expect(negotiate('pt-PT')).toBe('pt-BR')
    expect(negotiate('pt-br')).toBe('pt-BR')
    expect(negotiate('zh-CN,zh;q=0.9')).toBe('zh-Hans')
    expect(negotiate('sv, nl;q=0.4, en;q=0.3')).toBe('nl')
    expect(negotiate('sv, fi')).toBeUndefined()
    expect(negotiate('en;q=0.1, ja;q=0.9')).toBe('ja')
  })

  test('traditional Chinese gets simplified Chinese only when nothing else asked for is here', () => {
    expect(negotiate('zh-TW, en;q=0.5')).toBe('en')
    expect(negotiate('zh-TW, sv;q=0.5')).toBe('zh-Hans')
    expect(negotiate('zh-Hant-HK')).toBe('zh-Hans')
  })

  test('the link, then the cookie, then the header, then the default', () => {
    const ask = { cookie: 'fr', acceptLanguage: 'de' }
    expect(chooseLanguage(ask, { link: 'ja' })).toBe('ja')
    expect(chooseLanguage(ask, { link: null })).toBe('fr')
    expect(chooseLanguage({ cookie: 'xx', acceptLanguage: 'de' }, {})).toBe('de')
    expect(chooseLanguage({ cookie: undefined, acceptLanguage: 'sv' }, { fallback: 'uk' })).toBe('uk')
    expect(chooseLanguage({ cookie: undefined, acceptLanguage: null }, {})).toBe('en')
  })
})
