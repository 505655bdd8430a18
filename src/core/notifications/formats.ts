import type { ChannelKind } from './channels'
import type { OutgoingRequest } from '../outbound/send-request'

/** One notification: a short title, a few lines of text, and the dashboard page it is about. */
export type Message = { id: string; title: string; text: string; url: string }

const USER_AGENT = 'pdfshare-notifications'
const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT } })

/** Slack's mrkdwn treats &, < and > as markup: escaped, so a file's title cannot make a link or a mention. */
const slackEscape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

/**
 * The request that posts `message` to a channel, in its service's own format. Titles and texts are the
 * owner's own words (file titles, link labels) and readers' addresses: nothing in them may act as markup that
 * pings a room (Discord's `allowed_mentions` is empty; Slack's special characters are escaped).
 */
export function requestFor(kind: Exclude<ChannelKind, 'email'>, target: string, message: Message): OutgoingRequest {
  const url = new URL(target)
  switch (kind) {
    case 'ntfy': {
      // Published as JSON to the server's root, which takes the topic in the body: a title in any script, and a
      // click action, without header encodings. Credentials and ?auth= stay on the URL.
      const topic = url.pathname.split('/').filter(Boolean)[0]!
      url.pathname = '/'
      return {
        url: url.href,
        method: 'POST',
        ...json({ topic, title: message.title, message: message.text, click: message.url, tags: ['page_facing_up'] }),
      }
    }
    case 'gotify':
      return {
        url: url.href,
        method: 'POST',
        ...json({
          title: message.title,
          message: `${message.text}\n\n${message.url}`,
          priority: 5,
          extras: { 'client::notification': { click: { url: message.url } } },
        }),
      }
    case 'slack':
      return {
        url: url.href,
        method: 'POST',
        ...json({ text: `*${slackEscape(message.title)}*\n${slackEscape(message.text)}\n${message.url}` }),
      }
    case 'discord': {
      const content = `**${message.title}**\n${message.text}\n${message.url}`
      return { url: url.href, method: 'POST', ...json({ content: content.slice(0, 2000), allowed_mentions: { parse: [] } }) }
    }
    case 'matrix': {
      // The client-server API's send: PUT with a transaction id, which the homeserver keeps per access token, so
      // a retried delivery is posted to the room once.
      url.pathname = `${url.pathname.replace(/\/$/, '')}/${encodeURIComponent(message.id)}`
      return { url: url.href, method: 'PUT', ...json({ msgtype: 'm.text', body: `${message.title}\n${message.text}\n${message.url}` }) }
    }
  }
}
