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
  /**
   * A room link's room (`title` is then its name): how many documents it holds now, and per reader address how
   * many of them that reader has opened through the link so far.
   */
  room: { id: string; name: string; documents: number; readBy: Record<string, number> } | null
}

/** The waiting events of one link whose hour (or day) is over. */
export type Digest = { news: LinkNews; events: ReaderEventRow[]; from: number; until: number; lastSeq: number }

/** How many reader addresses a digest names before "and N more". */
const NAMED_READERS = 10

const documentOf = (news: LinkNews) => news.title || news.filename
const linkOf = (news: LinkNews) => (news.label ? `the link "${news.label}"` : news.isDefault ? 'its default link' : 'a share link')
const pageOf = (publicUrl: string, news: LinkNews) =>
  news.room ? `${publicUrl}/app#/rooms/${news.room.id}` : `${publicUrl}/app#/files/${news.fileId}`
/** "read 3 of 7 documents", for a reader of a room link who gave an address. */
const readOf = (news: LinkNews, reader: string | null) =>
  news.room && reader !== null
    ? `read ${news.room.readBy[reader] ?? 0} of ${news.room.documents} ${news.room.documents === 1 ? 'document' : 'documents'}`
    : null

const WHAT: Record<string, { title: string; did: string }> = {
  view: { title: 'New reader', did: 'opened it' },
  download: { title: 'Downloaded', did: 'downloaded it' },
  acceptance: { title: 'Agreement accepted', did: 'accepted its agreement' },
}

/** The same for a room link's events ({room}: `room "<name>"`). */
const ROOM_WHAT: Record<string, { title: string; did: string }> = {
  view: { title: 'New reader', did: 'opened {room}' },
  download: { title: 'Downloaded', did: 'downloaded from {room}' },
  acceptance: { title: 'Agreement accepted', did: 'accepted the agreement of {room}' },
}

/** One event, told at once: "New reader: Board deck" / "ada@acme.com opened it through the link "Acme"." */
export function eventMessage(publicUrl: string, news: LinkNews, event: ReaderEventRow) {
  if (event.kind === 'received')
    return {
      title: `File received: ${news.filename}`,
      text: `${event.reader ?? 'Someone'} sent it through your request "${news.request?.title ?? ''}" at ${new Date(event.at).toISOString().slice(11, 16)} UTC. Its link is off until you share it.`,
      url: pageOf(publicUrl, news),
    }
  const what = (news.room ? ROOM_WHAT : WHAT)[event.kind] ?? WHAT.view!
  const did = news.room ? what.did.replace('{room}', `room "${news.room.name}"`) : what.did
  const read = event.kind === 'view' ? readOf(news, event.reader) : null
  return {
    title: `${what.title}: ${documentOf(news)}`,
    text: `${event.reader ?? 'Someone'} ${did}${read ? `, ${read},` : ''} through ${linkOf(news)} at ${new Date(event.at).toISOString().slice(11, 16)} UTC.`,
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
      : `\n${who}: ${readers
          .slice(0, NAMED_READERS)
          .map((reader) => (digest.news.room ? `${reader} (${readOf(digest.news, reader)})` : reader))
          .join(', ')}${readers.length > NAMED_READERS ? ` and ${readers.length - NAMED_READERS} more` : ''}.`
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
