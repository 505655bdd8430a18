// User-Agent strings that tests visit share pages with. Humans are counted as views; bots and tools never
// are (the full list of crawlers the counter must skip is in test/share/views.test.ts).

/** A desktop browser: a human visitor. */
export const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'

/** A phone browser: a second human, different from FIREFOX. */
export const SAFARI_PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 19_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.0 Mobile/15E148 Safari/604.1'

/** Slack unfurling a link: a bot that fetches the page and its preview image. */
export const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'

/** A browser whose User-Agent differs by `n`: from one address, each `n` is another visitor. */
export function browserNumber(n: number | string): string {
  return `Mozilla/5.0 (X11; Linux x86_64) Firefox/140.${n}`
}
