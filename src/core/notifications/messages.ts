import type { ReaderEventRow } from '../../db/tables'
import type { Translate } from '../i18n/translator'

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
/** Which link it came through, as the messages' `via` select names it (with its `label`). */
const viaOf = (news: LinkNews) => ({ via: news.label ? 'labelled' : news.isDefault ? 'default' : 'other', label: news.label })
const pageOf = (publicUrl: string, news: LinkNews) =>
  news.room ? `${publicUrl}/app#/rooms/${news.room.id}` : `${publicUrl}/app#/files/${news.fileId}`
/** What a room link's reader who gave an address has read of the room: `read` of `documents`. */
const readOf = (room: NonNullable<LinkNews['room']>, reader: string) => ({ read: room.readBy[reader] ?? 0, documents: room.documents })
/** The kinds of events the messages' `kind` select names (`other`: an acceptance). */
const kindOf = (kind: string) => (kind === 'view' || kind === 'download' ? kind : 'other')

/**
 * One event, told at once: "New reader: Board deck" / "ada@acme.com opened it through the link "Acme" at 09:05 UTC.",
 * in the owner's language (`t`; docs/languages.md, Mails: the instance's default for now).
 */
export function eventMessage(t: Translate, publicUrl: string, news: LinkNews, event: ReaderEventRow) {
  const who = event.reader ?? t('notify.someone')
  if (event.kind === 'received')
    return {
      title: t('notify.received.title', { filename: news.filename }),
      text: t('notify.received.text', { who, request: news.request?.title ?? '', at: event.at }),
      url: pageOf(publicUrl, news),
    }
  const kind = kindOf(event.kind)
  const { room } = news
  const counted = room !== null && event.kind === 'view' && event.reader !== null
  return {
    title: t('notify.event.title', { kind, document: documentOf(news) }),
    text: room
      ? t('notify.roomEvent.text', {
          who,
          kind,
          room: room.name,
          counted: counted ? 'yes' : 'no',
          ...(counted ? readOf(room, event.reader!) : { read: 0, documents: room.documents }),
          ...viaOf(news),
          at: event.at,
        })
      : t('notify.event.text', { who, kind, ...viaOf(news), at: event.at }),
    url: pageOf(publicUrl, news),
  }
}

/** A digest: the counts of the period, then the readers who gave an address (a request's: the files and their senders). */
export function digestMessage(t: Translate, publicUrl: string, digest: Digest) {
  const of = (kind: string) => digest.events.filter((event) => event.kind === kind).length
  const readers = [...new Set(digest.events.map((event) => event.reader).filter((reader): reader is string => reader !== null))]
  const { room } = digest.news
  const named = (key: 'notify.digest.readers' | 'notify.digest.senders') =>
    readers.length === 0
      ? ''
      : `\n${t(key, {
          names: readers
            .slice(0, NAMED_READERS)
            .map((reader) => (room ? t('notify.readerRead', { reader, ...readOf(room, reader) }) : reader))
            .join(t('notify.listSeparator')),
          more: Math.max(0, readers.length - NAMED_READERS),
        })}`
  const period = { from: digest.from, until: digest.until }
  if (digest.news.request)
    return {
      title: t('notify.requestDigest.title', { request: digest.news.request.title, files: of('received') }),
      text: `${t('notify.requestDigest.text', period)}${named('notify.digest.senders')}`,
      url: `${publicUrl}/app#/files`,
    }
  return {
    title: t('notify.digest.title', {
      document: documentOf(digest.news),
      views: of('view'),
      downloads: of('download'),
      acceptances: of('acceptance'),
    }),
    text: `${t('notify.digest.text', { ...viaOf(digest.news), ...period })}${named('notify.digest.readers')}`,
    url: pageOf(publicUrl, digest.news),
  }
}
