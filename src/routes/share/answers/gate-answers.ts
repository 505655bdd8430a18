import type { AppContext } from '../../../core/context'
import type { SharedLink } from '../../../core/links/find-shared-link'
import type { AgreementDecision } from '../../../core/share/accept-agreement'
import type { Gate, GoneAccess } from '../../../core/share/link-access'
import {
  type GateReader,
  type LinkCookie,
  type ReaderCookieOptions,
  readerCookieHeader,
  readerCookieValue,
} from '../../../core/share/reader-cookies'
import type { AddressDecision, CodeDecision } from '../../../core/share/reader-gate'
import { framingHeaders, PASSWORD_PAGE_HEADERS, STAND_IN_HEADERS } from './headers'
import { addressPage, agreementPage, codePage } from './link-pages'
import type { PageContext } from './pages'
import type { MessageKey } from '../../../core/i18n/catalogs'
import type { Translate } from '../../../core/i18n/translator'

/** A refusal's words: its heading and its sentence are `<key>.title` and `<key>.message` in the catalogs. */
export type RefusalWords =
  | 'noMail'
  | 'agreement.tooMany'
  | `refused.${'locked' | 'first' | 'noDownload' | 'unstampable' | 'preparing' | 'tooManyPasswords' | 'busy' | 'crossSite'}`

/** A refusal's heading and sentence in `t`'s language. */
export function refusalText(t: Translate, words: RefusalWords): { title: string; message: string } {
  const title: MessageKey = `${words}.title`
  const message: MessageKey = `${words}.message`
  return { title: t(title), message: t(message) }
}

export type ResponseSet = { status?: number | string; headers: Record<string, string | number> }

/** What the share answers lend the gate answers: the page context and their ways to answer. */
export type AnswerKit = {
  ctx: AppContext
  page: PageContext
  html: (set: ResponseSet, status: number, body: string, headers?: Record<string, string | string[]>) => string
  notFound: (set: ResponseSet) => string
  gone: (set: ResponseSet, closed: GoneAccess) => string
  refused: (set: ResponseSet, status: number, words: RefusalWords, headers?: Record<string, string>) => string
  linkPath: (slug: string) => string
  linkCookie: (kind: LinkCookie, link: SharedLink['link']) => string
  cookieOptions: (link: SharedLink['link']) => ReaderCookieOptions
}

/**
 * How the share routes answer the gates after a password: the address page, the code page and the agreement
 * page, and what their forms decided (service/reader-gate.ts, service/accept-agreement.ts). A reader who passes
 * a gate goes back to the link's page with the gate's cookie (303), where the next gate or the document waits.
 */
export function gateAnswers(kit: AnswerKit) {
  const { ctx, page, html } = kit
  const { t } = page
  const retentionDays = ctx.config.analyticsRetention
  /** A gate page's headers: its form posts back, and the sites the link names may frame it like the document. */
  const formHeaders = (link: SharedLink['link']) => ({ ...PASSWORD_PAGE_HEADERS, ...framingHeaders(link, 'form') })
  const backToPage = (set: ResponseSet, link: SharedLink['link'], cookie?: string) => {
    set.status = 303
    Object.assign(set.headers, STAND_IN_HEADERS, { location: kit.linkPath(link.slug) }, cookie ? { 'set-cookie': cookie } : {})
    return ''
  }
  const addressForm = (set: ResponseSet, status: number, link: SharedLink['link'], extra: { problem?: string; address?: string } = {}) =>
    html(
      set,
      status,
      addressPage(page, link.slug, { verified: link.access === 'verified-email', retentionDays, ...extra }),
      formHeaders(link),
    )
  const codeForm = (set: ResponseSet, status: number, link: SharedLink['link'], address: string, problem?: string) =>
    html(set, status, codePage(page, link.slug, { address, problem }), formHeaders(link))
  const agreementForm = (set: ResponseSet, status: number, link: SharedLink['link']) =>
    html(set, status, agreementPage(page, link.slug, { text: link.agreement ?? '', version: link.agreementVersion }), formHeaders(link))
  const admitted = (set: ResponseSet, link: SharedLink['link'], reader: GateReader) =>
    backToPage(
      set,
      link,
      readerCookieHeader(
        'reader',
        readerCookieValue(ctx.signingKey, link, reader, ctx.now()),
        kit.linkPath(link.slug),
        kit.cookieOptions(link),
      ),
    )

  /** The first answers of both reader forms, and of the address and code problems they share. */
  const common = (set: ResponseSet, decision: AddressDecision | CodeDecision): string | undefined => {
    switch (decision.kind) {
      case 'missing':
      case 'no_form': // a link without this gate takes no such POST, like any other path
        return kit.notFound(set)
      case 'gone':
        return kit.gone(set, decision)
      case 'in':
        return backToPage(set, decision.link)
      case 'invalid':
        return addressForm(set, 400, decision.link, {
          problem: t('address.invalid'),
          address: decision.text.slice(0, 254),
        })
      case 'denied':
      case 'not_allowed':
        return addressForm(set, 403, decision.link, {
          problem: t('address.denied', { address: decision.address }),
          address: decision.address,
        })
      case 'admitted':
        return admitted(set, decision.link, { address: decision.address, verified: decision.verified })
      case 'rate_limited':
        set.headers['retry-after'] = String(decision.retryAfterSeconds)
        return addressForm(set, 429, decision.link, {
          problem: decision.what === 'codes' ? t('address.tooManyCodes') : t('address.tooManyAddresses'),
          address: decision.address,
        })
    }
    return undefined
  }

  return {
    /** The page of a gate after the password: the address form, or the agreement. */
    gatePage(set: ResponseSet, gate: Exclude<Gate, 'password'>, shared: SharedLink) {
      return gate === 'reader' ? addressForm(set, 200, shared.link) : agreementForm(set, 200, shared.link)
    },

    /** `POST /s/:slug/reader`. */
    address(set: ResponseSet, decision: AddressDecision) {
      const answered = common(set, decision)
      if (answered !== undefined) return answered
      switch (decision.kind) {
        case 'code_sent':
          return codeForm(set, 200, decision.link, decision.address)
        case 'no_mail':
          return kit.refused(set, 503, 'noMail')
      }
      return kit.notFound(set)
    },

    /** `POST /s/:slug/code`. */
    code(set: ResponseSet, decision: CodeDecision) {
      const answered = common(set, decision)
      if (answered !== undefined) return answered
      switch (decision.kind) {
        case 'wrong':
          return codeForm(set, 401, decision.link, decision.address, t('code.wrong', { tries: decision.triesLeft }))
        case 'expired':
          return codeForm(set, 401, decision.link, decision.address, t('code.expired'))
      }
      return kit.notFound(set)
    },

    /** `POST /s/:slug/agreement`. */
    agreement(set: ResponseSet, decision: AgreementDecision) {
      switch (decision.kind) {
        case 'missing':
        case 'no_form':
          return kit.notFound(set)
        case 'gone':
          return kit.gone(set, decision)
        case 'in':
          return backToPage(set, decision.link)
        case 'changed':
          return agreementForm(set, 409, decision.shared.link)
        case 'accepted':
          return backToPage(set, decision.link, kit.linkCookie('agreed', decision.link))
        case 'rate_limited':
          set.headers['retry-after'] = String(decision.retryAfterSeconds)
          return kit.refused(set, 429, 'agreement.tooMany')
      }
    },
  }
}
