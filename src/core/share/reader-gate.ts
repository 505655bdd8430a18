import type { AppContext } from '../context'
import type { SharedLink } from '../links/find-shared-link'
import { readerAddressOf, readerVerdict } from '../links/readers'
import { rateLimitFor } from '../limits/rate-limit'
import { mailedCodes } from '../readers/mailed-codes'
import type { GoneAccess, LinkAccess } from './link-access'
import type { Language } from '../../shared/languages'

/**
 * Addresses an `email` link may refuse one client address in an hour: past that, every address it tries is
 * refused (429) until the hour is over, the allowed ones too, so the lists cannot be read out by trying
 * addresses. A `verified-email` link needs no such count: it answers every address alike (a code was sent).
 */
export const REFUSAL_LIMITS = { perClient: 10, windowMs: 60 * 60 * 1000 } as const

/**
 * What the address form of a link's gate (`POST /s/:slug/reader`) decided: the link is missing or gone, or asks
 * for no address (`no_form`); the reader's already past this gate (`in`); the text is not an address
 * (`invalid`); the lists keep it out (`denied`, `not_allowed`: an email link only); the link lets it in as given
 * (`admitted`, access email); a code was mailed to it, or so it is answered (`code_sent`); too many codes, or
 * too many refusals from this client (`rate_limited`, `what`); no mail server (`no_mail`).
 */
export type AddressDecision =
  | { kind: 'missing' }
  | GoneAccess
  | { kind: 'no_form' }
  | { kind: 'in'; link: SharedLink['link'] }
  | { kind: 'invalid'; link: SharedLink['link']; text: string }
  | { kind: 'denied' | 'not_allowed'; link: SharedLink['link']; address: string }
  | { kind: 'admitted'; link: SharedLink['link']; address: string; verified: boolean }
  | { kind: 'code_sent'; link: SharedLink['link']; address: string }
  | { kind: 'rate_limited'; link: SharedLink['link']; address: string; retryAfterSeconds: number; what: 'codes' | 'refusals' }
  | { kind: 'no_mail'; link: SharedLink['link'] }

/** What the code form decided: as above, or the code is `wrong` (tries left) or `expired` (none, dead or used up). */
export type CodeDecision =
  | Extract<
      AddressDecision,
      { kind: 'missing' | 'gone' | 'no_form' | 'in' | 'invalid' | 'denied' | 'not_allowed' | 'admitted' | 'rate_limited' }
    >
  | { kind: 'wrong'; link: SharedLink['link']; address: string; triesLeft: number }
  | { kind: 'expired'; link: SharedLink['link']; address: string }

/** The link and what the reader's cookies open of it (link-access.ts), and the client as the limits count it. */
type GateInput = { access: LinkAccess; client: string }

/**
 * The reader's side of a link that asks for an address: the address form, and for a verified-email link the
 * mailed six-digit code (core/readers/mailed-codes.ts: its lifetime, tries and limits).
 *
 * The lists must not answer who is on them. A verified-email link answers an address the lists keep out as it
 * answers any other (the code form; the limits counted alike), and mails nothing: it gets a stand-in code that
 * nothing matches, so its code form counts tries down like any other. An email link lets in or refuses at once,
 * so its refusals are counted per client (REFUSAL_LIMITS).
 */
export function readerGate(ctx: AppContext) {
  const codes = mailedCodes(ctx, {
    name: 'reader',
    codes: { table: ctx.db.tables.readerCodes, scope: 'linkId' },
    mail: 'reader',
  })
  const refusals = rateLimitFor(ctx, 'reader refusals per client', {
    perMinute: REFUSAL_LIMITS.perClient,
    windowMs: REFUSAL_LIMITS.windowMs,
  })

  /** The link's state at its reader gate: the first answers both forms share. */
  const atGate = ({ access }: GateInput) => {
    if (access.kind !== 'open') return access
    const { link } = access.shared
    if (link.access === 'open' || access.gate === 'password') return { kind: 'no_form' } as const
    if (access.gate !== 'reader') return { kind: 'in', link } as const
    return { kind: 'gate', shared: access.shared } as const
  }
  const judged = (link: SharedLink['link'], text: string) => {
    const address = readerAddressOf(text)
    if (address === undefined) return { kind: 'invalid', link, text } as const
    const verdict = readerVerdict(link, address)
    if (verdict !== 'allowed') return { kind: verdict, link, address } as const
    return { kind: 'allowed', address } as const
  }

  /**
   * An email link's answer to an address: in, or refused by the lists; either way counted against the client's
   * refusals first, and taken back when it let the reader in (so only refusals use them up).
   */
  const admitByAddress = async (
    link: SharedLink['link'],
    judgement: ReturnType<typeof judged>,
    client: string,
  ): Promise<Extract<AddressDecision, { kind: 'invalid' | 'denied' | 'not_allowed' | 'admitted' | 'rate_limited' }>> => {
    if (judgement.kind === 'invalid') return judgement
    const now = ctx.now()
    const decision = await refusals.hit(client, now)
    if (decision && !decision.allowed)
      return { kind: 'rate_limited', link, address: judgement.address, retryAfterSeconds: decision.resetSeconds, what: 'refusals' }
    if (judgement.kind !== 'allowed') return judgement
    if (decision) await refusals.undo(client, now)
    return { kind: 'admitted', link, address: judgement.address, verified: false }
  }

  return {
    /** `POST /s/:slug/reader`: the address a reader typed, and the language of their page (their code mail's). */
    async enterAddress(input: GateInput & { email: string; language: Language }): Promise<AddressDecision> {
      const at = atGate(input)
      if (at.kind !== 'gate') return at
      const { link } = at.shared
      const judgement = judged(link, input.email)
      if (link.access === 'email') return admitByAddress(link, judgement, input.client)
      if (judgement.kind === 'invalid') return judgement
      const { address } = judgement
      const sent = await codes.send({
        scopeId: link.id,
        address,
        allowed: judgement.kind === 'allowed',
        client: input.client,
        language: input.language,
      })
      if (sent.kind === 'no_mail') return { kind: 'no_mail', link }
      return sent.kind === 'rate_limited' ? { ...sent, link, address, what: 'codes' } : { ...sent, link, address }
    },

    /** `POST /s/:slug/code`: the code a reader typed for the address it was mailed to. */
    async enterCode(input: GateInput & { email: string; code: string }): Promise<CodeDecision> {
      const at = atGate(input)
      if (at.kind !== 'gate') return at
      const { link } = at.shared
      const judgement = judged(link, input.email)
      if (link.access === 'email') return admitByAddress(link, judgement, input.client)
      if (judgement.kind === 'invalid') return judgement
      // An address the lists keep out is answered as any other ("wrong", "expired"; its stand-in code matches nothing), never "not allowed".
      const { address } = judgement
      const checked = await codes.check({ scopeId: link.id, address, allowed: judgement.kind === 'allowed', code: input.code })
      return checked.kind === 'admitted' ? { ...checked, link, address, verified: true } : { ...checked, link, address }
    },
  }
}
