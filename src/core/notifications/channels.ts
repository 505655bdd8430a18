import { readerAddressOf } from '../links/readers'
import { basicAuthorization } from '../outbound/basic-auth'

/**
 * The kinds of notification channel: an email address, or the URL of a room or topic of a chat or push service,
 * which pdfshare posts to in that service's own format (core/notifications/formats.ts).
 */
export const CHANNEL_KINDS = ['email', 'ntfy', 'gotify', 'slack', 'discord', 'matrix'] as const
export type ChannelKind = (typeof CHANNEL_KINDS)[number]
export const isChannelKind = (value: unknown): value is ChannelKind => CHANNEL_KINDS.includes(value as ChannelKind)

/** Channels one user may have. */
export const MAX_CHANNELS = 20
/** Test messages ("send a test message") one user may queue per minute, as many as webhooks' test events. */
export const CHANNEL_TESTS_PER_MINUTE = 10

/** What each kind's target looks like, for the messages that refuse one. */
export const TARGET_EXAMPLES: Record<ChannelKind, string> = {
  email: 'you@example.com',
  ntfy: 'https://ntfy.sh/your-topic (a token as ?auth=… or user:password@ if the topic is protected)',
  gotify: 'https://gotify.example.com/message?token=APP_TOKEN',
  slack: 'https://hooks.slack.com/services/T…/B…/… (an incoming webhook)',
  discord: 'https://discord.com/api/webhooks/ID/TOKEN',
  matrix: 'https://matrix.example.com/_matrix/client/v3/rooms/!ROOM:example.com/send/m.room.message?access_token=TOKEN',
}

// A homeserver may sit under a path of its host: only the end of the path is the API.
const MATRIX_SEND = /\/_matrix\/client\/(v3|r0)\/rooms\/[^/]+\/send\/m\.room\.message\/?$/

/** The target as it is kept (an address lower-cased, a URL as given), or what is wrong with it. */
export function checkTarget(kind: ChannelKind, text: string): { target: string } | { problem: string } {
  const refused = {
    problem: `target must be ${kind === 'email' ? 'an email address' : 'an https:// or http:// URL'} like ${TARGET_EXAMPLES[kind]}`,
  }
  if (kind === 'email') {
    const address = readerAddressOf(text)
    return address ? { target: address } : refused
  }
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return refused
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || text.length > 2000) return refused
  const credentials = basicAuthorization(url)
  if ('problem' in credentials) return credentials
  if (kind === 'gotify' && !url.searchParams.get('token'))
    return { problem: `a Gotify target needs its application token: ${TARGET_EXAMPLES.gotify}` }
  if (kind === 'matrix' && (!MATRIX_SEND.test(url.pathname) || !url.searchParams.get('access_token')))
    return { problem: `a Matrix target is the room's send URL with an access token: ${TARGET_EXAMPLES.matrix}` }
  if (kind === 'ntfy' && url.pathname.split('/').filter(Boolean).length !== 1)
    return { problem: `an ntfy target is the topic's URL: ${TARGET_EXAMPLES.ntfy}` }
  return { target: url.href }
}

/**
 * A target as answers show it: an address whole, a URL as its host and a shortened path, because Slack's,
 * Discord's and Gotify's URLs are themselves the secret that lets anyone post there.
 */
export function shownTarget(kind: ChannelKind, target: string): string {
  if (kind === 'email') return target
  const url = new URL(target)
  const path = url.pathname.length > 12 ? `${url.pathname.slice(0, 12)}…` : url.pathname
  return `${url.protocol}//${url.host}${path}`
}
