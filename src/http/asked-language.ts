import { LANGUAGE_COOKIE, negotiate } from '../core/i18n/negotiate'
import { cookieValues } from '../lib/cookies'
import { isLanguage, type Language } from '../shared/languages'

/**
 * The language a request asks for, if any: the picker's cookie, else its Accept-Language, negotiated
 * (docs/languages.md). A mail the request causes to its own sender is in it when their account has none.
 */
export function askedLanguage(request: Request): Language | undefined {
  const cookie = cookieValues(request.headers.get('cookie'), LANGUAGE_COOKIE)[0]
  return isLanguage(cookie) ? cookie : negotiate(request.headers.get('accept-language'))
}
