import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lt, lte, type SQL, sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { NotificationChannelRow, ReaderEventRow } from '../../db/tables'
import { randomId } from '../../lib/ids'
import { type Digest, digestMessage, eventMessage, type LinkNews } from './messages'
import { mailWords } from '../i18n/mail-words'
import type { Translate } from '../i18n/translator'

/** Notifications at once per link and hour; past it, the hour's other events wait for one digest. */
export const NOTICES_PER_LINK_HOUR = 10
const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
/** Events routed per pass. */
const BATCH = 200

type Routed = { event: ReaderEventRow; news: LinkNews }

/**
 * Routes readers' events to the owners' channels: each new event is told at once (`sent`: one delivery per
 * channel), kept for a digest (`digest`: the link wants an hourly or daily one, or has had NOTICES_PER_LINK_HOUR
 * this hour already), or dropped (`done`: the link's notify is off, or the owner has no channel). A due digest
 * becomes one delivery per channel, its events `digested`.
 *
 * Several instances may route at once. Each routing claims its events first, marking them with a random
 * value, and queues its deliveries only where the events bear it, in the same batch: a routing that lost the
 * race to another one queues nothing. An event is told at most once; a crash before the batch commits leaves
 * it new, for the next pass.
 */
export async function routeEvents(ctx: AppContext): Promise<number> {
  const now = ctx.now()
  let queued = 0
  const ownerOf = ownerReader(ctx)
  for (const { event, news } of await newEvents(ctx)) {
    const { channels, words } = await ownerOf(event.ownerId)
    const state =
      channels.length === 0 || news.notify === 'off'
        ? 'done'
        : news.notify !== 'on' || (await toldThisHour(ctx, event, now)) >= NOTICES_PER_LINK_HOUR
          ? 'digest'
          : 'sent'
    const message = state === 'sent' ? eventMessage(words, ctx.config.publicUrl, news, event) : null
    queued += await claimAndQueue(
      ctx,
      eq(ctx.db.tables.readerEvents.id, event.id),
      state,
      message ? channels.map((channel) => ({ channel, message })) : [],
    )
  }
  for (const digest of await dueDigests(ctx, now)) {
    const { channels, words } = await ownerOf(digest.news.ownerId)
    const { readerEvents } = ctx.db.tables
    const which = and(
      digest.news.request ? eq(readerEvents.requestId, digest.news.request.id) : eq(readerEvents.linkId, digest.news.linkId),
      eq(readerEvents.state, 'digest'),
      lt(readerEvents.at, digest.until),
      lte(readerEvents.seq, digest.lastSeq),
    ) as SQL
    const message = digest.news.notify === 'off' || channels.length === 0 ? null : digestMessage(words, ctx.config.publicUrl, digest)
    queued += await claimAndQueue(
      ctx,
      which,
      message ? 'digested' : 'done',
      message ? channels.map((channel) => ({ channel, message })) : [],
    )
  }
  return queued
}

/**
 * One batch: the events `which` (still where the routing found them) take `state` and this routing's mark;
 * then a delivery per message, each only if the mark is there (this routing claimed them). Answers how many
 * deliveries went in.
 */
async function claimAndQueue(
  ctx: AppContext,
  which: SQL,
  state: 'sent' | 'digest' | 'digested' | 'done',
  messages: { channel: NotificationChannelRow; message: { title: string; text: string; url: string } }[],
): Promise<number> {
  const { readerEvents, notificationDeliveries } = ctx.db.tables
  const mark = randomId()
  const now = ctx.now()
  const stillThere = sql`${readerEvents.state} IN ('new', 'digest') AND ${readerEvents.state} <> ${state}`
  const inserts = messages.map(({ channel, message }) =>
    ctx.db.orm.all<{ id: string }>(sql`INSERT INTO ${notificationDeliveries}
      (id, owner_id, channel_id, title, body, url, created_at, status, attempts, next_attempt_at)
      SELECT ${randomId()}, ${channel.ownerId}, ${channel.id}, ${message.title}, ${message.text}, ${message.url}, ${now}, 'pending', 0, ${now}
      WHERE EXISTS (SELECT 1 FROM ${readerEvents} WHERE ${readerEvents.routedBy} = ${mark})
      RETURNING id`),
  )
  const [, ...inserted] = await ctx.db.orm.batch([
    ctx.db.orm.update(readerEvents).set({ state, routedBy: mark }).where(and(which, stillThere)),
    ...inserts,
  ] as const)
  return inserted.reduce((sum, rows) => sum + (rows as unknown[]).length, 0)
}

/** The oldest new events with what their messages need of the link and file. */
async function newEvents(ctx: AppContext): Promise<Routed[]> {
  const { readerEvents } = ctx.db.tables
  const { requests } = ctx.db.tables
  const rows = await ctx.db.orm
    .select({ event: readerEvents, news: newsColumns(ctx), requestNotify: requests.notify, requestTitle: requests.title })
    .from(readerEvents)
    .innerJoin(ctx.db.tables.links, eq(ctx.db.tables.links.id, readerEvents.linkId))
    .leftJoin(ctx.db.tables.files, eq(ctx.db.tables.files.id, ctx.db.tables.links.fileId))
    .leftJoin(ctx.db.tables.rooms, eq(ctx.db.tables.rooms.id, ctx.db.tables.links.roomId))
    .leftJoin(requests, eq(requests.id, readerEvents.requestId))
    .where(eq(readerEvents.state, 'new'))
    .orderBy(asc(readerEvents.seq))
    .limit(BATCH)
  const newsOf = roomNews(ctx)
  return Promise.all(
    rows.map(async ({ event, news: columns, requestNotify, requestTitle }) => {
      const news = await newsOf(columns)
      return {
        event,
        // A received file's news follows its request's notify (its link is off, and its own); a deleted request tells nothing.
        news:
          event.requestId === null
            ? { ...news, ownerId: event.ownerId, request: null }
            : {
                ...news,
                ownerId: event.ownerId,
                notify: requestNotify ?? 'off',
                request: { id: event.requestId, title: requestTitle ?? '' },
              },
      }
    }),
  )
}

/** What a message needs of a link: its file's, or its room's (a left join on each: a link shares one of them). */
const newsColumns = (ctx: AppContext) => {
  const { links, files, rooms } = ctx.db.tables
  return {
    linkId: links.id,
    fileId: files.id,
    roomId: rooms.id,
    roomName: rooms.name,
    notify: links.notify,
    label: links.label,
    isDefault: links.isDefault,
    title: files.title,
    filename: files.filename,
  }
}
type NewsColumns = { [K in keyof ReturnType<typeof newsColumns>]: ReturnType<typeof newsColumns>[K]['_']['data'] | null }

/**
 * A link's news from its columns: a file link's as it was; a room link's with its room (its name stands for the
 * document's title) and, per reader who gave an address, how many of its documents they have opened so far.
 */
function roomNews(ctx: AppContext) {
  return async (row: NewsColumns): Promise<Omit<LinkNews, 'ownerId' | 'request'>> => {
    const news = {
      linkId: row.linkId ?? '',
      fileId: row.fileId ?? '',
      notify: row.notify ?? 'off',
      label: row.label ?? '',
      isDefault: row.isDefault ?? false,
      title: row.title ?? row.roomName ?? '',
      filename: row.filename ?? '',
      room: null,
    }
    if (row.roomId === null) return news
    const { visits, roomItems } = ctx.db.tables
    const [[size], read] = await Promise.all([
      ctx.db.orm.select({ n: count() }).from(roomItems).where(eq(roomItems.roomId, row.roomId)),
      // Per reader, the documents of the room now they opened through this link.
      ctx.db.orm
        .select({ reader: visits.reader, n: sql<number>`count(DISTINCT ${visits.fileId})` })
        .from(visits)
        .innerJoin(roomItems, and(eq(roomItems.roomId, row.roomId), eq(roomItems.fileId, visits.fileId)))
        .where(and(eq(visits.linkId, news.linkId), eq(visits.viewed, true), isNotNull(visits.reader)))
        .groupBy(visits.reader),
    ])
    const readBy = Object.fromEntries(read.map((r) => [r.reader ?? '', Number(r.n)]))
    return { ...news, room: { id: row.roomId, name: row.roomName ?? '', documents: Number(size?.n ?? 0), readBy } }
  }
}

/** Events told at once for the link (a received file's: for its request) in the last hour (the cap counts a sliding hour). */
async function toldThisHour(ctx: AppContext, event: ReaderEventRow, now: number): Promise<number> {
  const { readerEvents } = ctx.db.tables
  const of = event.requestId === null ? eq(readerEvents.linkId, event.linkId) : eq(readerEvents.requestId, event.requestId)
  const [row] = await ctx.db.orm
    .select({ told: count() })
    .from(readerEvents)
    .where(and(of, eq(readerEvents.state, 'sent'), gt(readerEvents.at, now - HOUR)))
  return Number(row?.told ?? 0)
}

/**
 * The digests that are due: per link with waiting events, once the UTC hour (or, for a daily link, the UTC day)
 * of its oldest waiting event is over. A digest takes the link's waiting events up to that hour's (day's) end.
 */
async function dueDigests(ctx: AppContext, now: number): Promise<Digest[]> {
  const { readerEvents } = ctx.db.tables
  const waiting = await ctx.db.orm
    .select({ linkId: readerEvents.linkId, oldest: sql<number>`min(${readerEvents.at})` })
    .from(readerEvents)
    .where(and(eq(readerEvents.state, 'digest'), isNull(readerEvents.requestId)))
    .groupBy(readerEvents.linkId)
  const digests: Digest[] = await dueRequestDigests(ctx, now)
  for (const { linkId, oldest } of waiting) {
    const [columns] = await ctx.db.orm
      .select(newsColumns(ctx))
      .from(ctx.db.tables.links)
      .leftJoin(ctx.db.tables.files, eq(ctx.db.tables.files.id, ctx.db.tables.links.fileId))
      .leftJoin(ctx.db.tables.rooms, eq(ctx.db.tables.rooms.id, ctx.db.tables.links.roomId))
      .where(eq(ctx.db.tables.links.id, linkId))
    if (!columns) continue
    const link = await roomNews(ctx)(columns)
    const period = link.notify === 'daily' ? DAY : HOUR
    const until = Number(oldest) - (Number(oldest) % period) + period
    if (until > now) continue
    const events = await ctx.db.orm
      .select()
      .from(readerEvents)
      .where(
        and(eq(readerEvents.linkId, linkId), eq(readerEvents.state, 'digest'), isNull(readerEvents.requestId), lt(readerEvents.at, until)),
      )
      .orderBy(asc(readerEvents.seq))
    if (events.length === 0) continue
    const [owner] = events
    digests.push({
      news: { ...link, ownerId: owner!.ownerId, request: null },
      events,
      from: until - period,
      until,
      lastSeq: events.at(-1)!.seq,
    })
  }
  return digests
}

/** The same per file request: its received files' waiting events, in one digest by the request's notify (files counted). */
async function dueRequestDigests(ctx: AppContext, now: number): Promise<Digest[]> {
  const { readerEvents, requests } = ctx.db.tables
  const waiting = await ctx.db.orm
    .select({ requestId: readerEvents.requestId, oldest: sql<number>`min(${readerEvents.at})` })
    .from(readerEvents)
    .where(and(eq(readerEvents.state, 'digest'), isNotNull(readerEvents.requestId)))
    .groupBy(readerEvents.requestId)
  const digests: Digest[] = []
  for (const { requestId, oldest } of waiting) {
    if (requestId === null) continue
    const [request] = await ctx.db.orm.select().from(requests).where(eq(requests.id, requestId))
    const notify = request?.notify ?? 'off' // a deleted request's events are dropped (claimed as done)
    const period = notify === 'daily' ? DAY : HOUR
    const until = Number(oldest) - (Number(oldest) % period) + period
    if (until > now && request) continue
    const events = await ctx.db.orm
      .select()
      .from(readerEvents)
      .where(and(eq(readerEvents.requestId, requestId), eq(readerEvents.state, 'digest'), lt(readerEvents.at, Math.max(until, now + 1))))
      .orderBy(asc(readerEvents.seq))
    const [first] = events
    if (!first) continue
    const news = {
      ownerId: first.ownerId,
      linkId: first.linkId,
      fileId: '',
      notify,
      label: '',
      isDefault: true,
      title: '',
      filename: '',
      room: null,
    }
    digests.push({
      news: { ...news, request: { id: requestId, title: request?.title ?? '' } },
      events,
      from: until - period,
      until,
      lastSeq: events.at(-1)!.seq,
    })
  }
  return digests
}

type Owner = { channels: NotificationChannelRow[]; words: Translate }

/**
 * An owner's channels and the words of their notifications, read once per pass: the owner's account's language
 * (PATCH /api/me), else the instance's default (a team has no language: its news are in the default), never the
 * reader's (docs/languages.md, Mails).
 */
function ownerReader(ctx: AppContext) {
  const known = new Map<string, Owner>()
  const { notificationChannels, users } = ctx.db.tables
  return async (ownerId: string): Promise<Owner> => {
    let owner = known.get(ownerId)
    if (!owner) {
      const channels = await ctx.db.orm
        .select()
        .from(notificationChannels)
        .where(inArray(notificationChannels.ownerId, [ownerId]))
      const [user] =
        channels.length === 0 ? [] : await ctx.db.orm.select({ language: users.language }).from(users).where(eq(users.id, ownerId))
      owner = { channels, words: mailWords(ctx.config.defaultLanguage, { account: user?.language }) }
      known.set(ownerId, owner)
    }
    return owner
  }
}
