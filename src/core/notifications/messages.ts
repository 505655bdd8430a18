import type { ReaderEventRow } from '../../db/tables'

/** What a message needs of the link and its file. */
export type LinkNews = {
  ownerId: string
  linkId: string
  fileId: string
  notify: string
  label: string
  isDefault: boolean
  title: string
  filename: string
  /** The request a received file came through (its notify is the news' own); null for readers' events. */
  request: { id: string; title: string } | null
}

/** The waiting events of one link whose hour (or day) is over. */
export type Digest = { news: LinkNews; events: ReaderEventRow[]; from: number; until: number; lastSeq: number }

/** How many reader addresses a digest names before "and N more". */
const NAMED_READERS = 10

const documentOf = (news: LinkNews) => news.title || news.filename
const linkOf = (news: LinkNews) => (news.label ? `the link "${news.label}"` : news.isDefault ? 'its default link' : 'a share link')
const pageOf = (publicUrl: string, news: LinkNews) => `${publicUrl}/app#/files/${news.fileId}`

const WHAT: Record<string, { title: string; did: string }> = {
  view: { title: 'New reader', did: 'opened it' },
  download: { title: 'Downloaded', did: 'downloaded it' },
  acceptance: { title: 'Agreement accepted', did: 'accepted its agreement' },
}

/** One event, told at once: "New reader: Board deck" / "ada@acme.com opened it through the link "Acme"." */
export function eventMessage(publicUrl: string, news: LinkNews, event: ReaderEventRow) {
  if (event.kind === 'received')
    return {
      title: `File received: ${news.filename}`,
      text: `${event.reader ?? 'Someone'} sent it through your request "${news.request?.title ?? ''}" at ${new Date(event.at).toISOString().slice(11, 16)} UTC. Its link is off until you share it.`,
      url: pageOf(publicUrl, news),
    }
  const what = WHAT[event.kind] ?? WHAT.view!
  return {
    title: `${what.title}: ${documentOf(news)}`,
    text: `${event.reader ?? 'Someone'} ${what.did} through ${linkOf(news)} at ${new Date(event.at).toISOString().slice(11, 16)} UTC.`,
    url: pageOf(publicUrl, news),
  }
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`

/** A digest: the counts of the period, then the readers who gave an address (a request's: the files and their senders). */
export function digestMessage(publicUrl: string, digest: Digest) {
  const of = (kind: string) => digest.events.filter((event) => event.kind === kind).length
  const readers = [...new Set(digest.events.map((event) => event.reader).filter((reader): reader is string => reader !== null))]
  const named = (who: string) =>
    readers.length === 0
      ? ''
      : `\n${who}: ${readers.slice(0, NAMED_READERS).join(', ')}${readers.length > NAMED_READERS ? ` and ${readers.length - NAMED_READERS} more` : ''}.`
  if (digest.news.request)
    return {
      title: `${digest.news.request.title}: ${counted(of('received'), 'file received', 'files received')}`,
      text: `Through your file request, from ${utc(digest.from)} to ${utc(digest.until)}.${named('Senders')}`,
      url: `${publicUrl}/app#/files`,
    }
  const parts = [
    counted(of('view'), 'new reader', 'new readers'),
    of('download') > 0 && counted(of('download'), 'download', 'downloads'),
    of('acceptance') > 0 && counted(of('acceptance'), 'agreement accepted', 'agreements accepted'),
  ].filter(Boolean)
  return {
    title: `${documentOf(digest.news)}: ${parts.join(', ')}`,
    text: `Through ${linkOf(digest.news)}, from ${utc(digest.from)} to ${utc(digest.until)}.${named('Readers')}`,
    url: pageOf(publicUrl, digest.news),
  }
}
