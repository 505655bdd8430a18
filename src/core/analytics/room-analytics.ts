import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { RoomAnalyticsDto } from '../../routes/analytics/model'
import { getOwnedRoom, roomOfOwner } from '../rooms/room-rows'
import { tenths } from './get-analytics'
import { MAX_READERS } from './reader-totals'

type DocumentTotals = { views: number; downloads: number; readingMs: number; last: number }

/**
 * A room's analytics (docs/rooms.md, Analytics): per document of the room now (in its order) its views, downloads,
 * readers and reading time; and per reader (the addresses given at its links' gates) which documents they opened
 * and for how long, with "read n of m". From the visits of the room's links, grouped by reader and file in one
 * query, whose condition holds only for the owner's room (another user's room is a 404 before it, and nothing in
 * it either). Visits kept are all counted (PDFSHARE_ANALYTICS_RETENTION bounds them).
 */
export async function roomAnalytics(ctx: AppContext, input: { ownerId: string; roomId: string }): Promise<RoomAnalyticsDto> {
  const room = await getOwnedRoom(ctx, { ownerId: input.ownerId, id: input.roomId })
  const { visits, links, files } = ctx.db.tables
  const sum = (column: SQL) => sql<number>`sum(CASE WHEN ${column} THEN 1 ELSE 0 END)`
  const last = sql<number>`max(${visits.at})`
  const rows = await ctx.db.orm
    .select({
      reader: visits.reader,
      fileId: visits.fileId,
      title: files.title,
      filename: files.filename,
      views: sum(sql`${visits.viewed}`),
      downloads: sum(sql`${visits.downloaded}`),
      readingMs: sql<number>`sum(${visits.readingMs})`,
      last,
    })
    .from(visits)
    .innerJoin(links, eq(links.id, visits.linkId))
    .innerJoin(files, eq(files.id, visits.fileId))
    .where(and(eq(links.roomId, room.id), roomOfOwner(ctx.db.tables, input.ownerId, room.id)))
    .groupBy(visits.reader, visits.fileId, files.title, files.filename)
    .orderBy(desc(last))
  const inRoom = new Set(room.items.map((item) => item.fileId))
  const perDocument = new Map<string, DocumentTotals & { readers: number }>()
  const perReader = new Map<string, RoomAnalyticsDto['readers'][number]>()
  const readerMs = new Map<string, number>()
  for (const row of rows) {
    const totals = { views: Number(row.views), downloads: Number(row.downloads), readingMs: Number(row.readingMs), last: Number(row.last) }
    const document = perDocument.get(row.fileId) ?? { views: 0, downloads: 0, readingMs: 0, last: 0, readers: 0 }
    perDocument.set(row.fileId, {
      views: document.views + totals.views,
      downloads: document.downloads + totals.downloads,
      readingMs: document.readingMs + totals.readingMs,
      last: Math.max(document.last, totals.last),
      readers: document.readers + (row.reader === null ? 0 : 1),
    })
    if (row.reader === null || (!perReader.has(row.reader) && perReader.size >= MAX_READERS)) continue
    const reader = perReader.get(row.reader) ?? {
      reader: row.reader,
      opened: 0,
      of: inRoom.size,
      readingSeconds: 0,
      lastVisitAt: '',
      documents: [],
    }
    reader.documents.push({
      fileId: row.fileId,
      title: row.title || row.filename,
      inRoom: inRoom.has(row.fileId),
      views: totals.views,
      downloads: totals.downloads,
      readingSeconds: tenths(totals.readingMs),
      lastVisitAt: new Date(totals.last).toISOString(),
    })
    if (totals.views > 0 && inRoom.has(row.fileId)) reader.opened += 1
    readerMs.set(row.reader, (readerMs.get(row.reader) ?? 0) + totals.readingMs)
    reader.readingSeconds = tenths(readerMs.get(row.reader)!)
    if (reader.lastVisitAt === '') reader.lastVisitAt = new Date(totals.last).toISOString() // rows come newest first
    perReader.set(row.reader, reader)
  }
  return {
    roomId: room.id,
    documents: room.items.map((item) => {
      const totals = perDocument.get(item.fileId)
      return {
        fileId: item.fileId,
        title: item.title || item.filename,
        folder: item.folder,
        views: totals?.views ?? 0,
        downloads: totals?.downloads ?? 0,
        readers: totals?.readers ?? 0,
        readingSeconds: tenths(totals?.readingMs ?? 0),
      }
    }),
    readers: [...perReader.values()],
  }
}
