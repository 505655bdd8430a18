import type { AppContext } from '../context'
import { shareUrlOf } from '../links/share-url'
import { outboxStatement } from '../webhooks/outbox'
import type { SqlStatement } from '../../db/hot-sql'
import type { LinkRow } from '../../db/tables'
import type { SharedLink } from '../links/find-shared-link'
import type { DeviceClass } from '../../lib/device-class'

/**
 * What a visit row and a reader's webhook event need of the link; for a room link's document, its room and the
 * document's title (the events name them).
 */
export type VisitedLink = Pick<LinkRow, 'id' | 'slug' | 'label' | 'notify'> & {
  fileId: string
  room?: { id: string; name: string; documentTitle: string }
}

/** The link of a shared link's visit: a room link's names its room and document. */
export function visitedLinkOf(shared: SharedLink): VisitedLink {
  const { link, file, room } = shared
  return room ? { ...link, room: { ...room, documentTitle: file.title || file.filename } } : link
}

/** What the request tells the analytics about its reader (never the raw address or User-Agent). */
export type VisitFacts = {
  /** HMAC of address group and User-Agent under the day's salt (service/visitor-salt.ts). */
  visitor: string
  referrerHost: string | null
  device: DeviceClass
  /** False when the reader sent Sec-GPC: 1 or DNT: 1. */
  tracked: boolean
  /** The address the reader gave at the link's gate; null when it asks for none. */
  reader: string | null
}

export type VisitRecord = VisitFacts & { id: string; at: number; viewed: boolean; downloaded: boolean }

const INSERT_VISIT = `INSERT INTO "visits" ("id", "link_id", "file_id", "at", "visitor", "referrer_host", "device", "tracked", "viewed", "downloaded", "reading_ms", "reader")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`

export function insertVisit(link: VisitedLink, visit: VisitRecord): SqlStatement {
  return {
    sql: INSERT_VISIT,
    args: [
      visit.id,
      link.id,
      link.fileId,
      visit.at,
      visit.visitor,
      visit.referrerHost,
      visit.device,
      visit.tracked,
      visit.viewed,
      visit.downloaded,
      visit.reader,
    ],
  }
}

const linkData = (publicUrl: string, link: VisitedLink) => ({
  id: link.id,
  fileId: link.fileId,
  url: shareUrlOf(publicUrl, link.slug),
  label: link.label,
})

/** A room link's event also names the room and the document read in it (a file link's payload is unchanged). */
const roomData = (link: VisitedLink) =>
  link.room ? { room: { id: link.room.id, name: link.room.name }, document: { fileId: link.fileId, title: link.room.documentTitle } } : {}

/**
 * The outbox rows of readers' events, for the owner's webhooks that want them, in the same transaction as the
 * visit: `link.viewed` for a counted view; `link.downloaded` only if the statement just before it changed one
 * row (the download was recorded: a new visit row, or a visit marked downloaded for the first time).
 */
export function visitEvents(ctx: Pick<AppContext, 'db' | 'config'>) {
  const { publicUrl } = ctx.config
  return {
    viewed: (ownerId: string, link: VisitedLink, visit: VisitRecord): SqlStatement =>
      outboxStatement(ctx.db, {
        event: 'link.viewed',
        ownerId,
        at: visit.at,
        data: {
          link: linkData(publicUrl, link),
          visit: { id: visit.id, at: new Date(visit.at).toISOString(), referrerHost: visit.referrerHost, device: visit.device },
          ...roomData(link),
        },
      }),
    downloaded: (ownerId: string, link: VisitedLink, visit: { id: string; at: number }): SqlStatement =>
      outboxStatement(ctx.db, {
        event: 'link.downloaded',
        ownerId,
        at: visit.at,
        data: { link: linkData(publicUrl, link), visit: { id: visit.id, at: new Date(visit.at).toISOString() }, ...roomData(link) },
        onlyIfPreviousChanged: true,
      }),
  }
}
