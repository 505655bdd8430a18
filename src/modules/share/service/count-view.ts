import { createHmac } from 'node:crypto'
import { isbot } from 'isbot'
import type { AppContext } from '../../../core/context'
import type { GroupResult, SqlStatement } from '../../../db/hot-sql'
import type { LinkRow } from '../../../db/schema'
import { addressGroup } from '../../../lib/address-group'
import { errorCodes } from '../../../lib/error-codes'
import type { Visit } from '../model'

/** A repeat visit by the same visitor within this window is not counted again (the README's Views: 30 minutes). */
export const REPEAT_WINDOW_MS = 30 * 60 * 1000

/**
 * Not a human visit: HEAD, prefetches and previews, requests without a User-Agent, and known crawlers,
 * link unfurlers (Slack, Discord, X, Facebook, LinkedIn, WhatsApp, Telegram…), HTTP libraries and headless
 * browsers that say so (the isbot list).
 */
export function isHumanVisit(visit: Visit): boolean {
  if (visit.method !== 'GET') return false
  if (visit.purpose && /prefetch|preview|prerender/i.test(visit.purpose)) return false
  if (!visit.userAgent?.trim()) return false
  return !isbot(visit.userAgent)
}

/** Expired marks are deleted at most this often, in the same commit as the views that come along. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000

const MARK = `INSERT INTO view_marks (link_id, visitor, seen_at) VALUES (?, ?, ?)
  ON CONFLICT (link_id, visitor) DO UPDATE SET seen_at = excluded.seen_at WHERE view_marks.seen_at <= ?`
/**
 * The same, unless the visitor's address already has `maxViewsPerAddress` live marks on this file. A visitor id starts with
 * a tag of its address (`tag.`), so the marks of one address are a range of the primary key (link, visitor).
 * A live mark is a view counted within the window, so this bounds the views one address adds to one link in
 * any window, also when it changes its User-Agent for every request.
 */
const MARK_WITHIN_ADDRESS_BOUND = `INSERT INTO view_marks (link_id, visitor, seen_at)
  SELECT ?, ?, ? WHERE (SELECT count(*) FROM view_marks WHERE link_id = ? AND visitor > ? AND visitor < ? AND seen_at > ?) < ?
  ON CONFLICT (link_id, visitor) DO UPDATE SET seen_at = excluded.seen_at WHERE view_marks.seen_at <= ?`
const ADD_LINK_VIEWS = 'UPDATE links SET views = views + ? WHERE id = ?'
const ADD_FILE_VIEWS = 'UPDATE files SET views = views + ? WHERE id = ?'
const SWEEP = 'DELETE FROM view_marks WHERE seen_at <= ?'

export type CountView = (input: { link: Pick<LinkRow, 'id' | 'fileId'>; visit: Visit }) => Promise<boolean>

type Pending = {
  link: Pick<LinkRow, 'id' | 'fileId'>
  group: SqlStatement[]
  resolve: (counted: boolean) => void
  reject: (error: unknown) => void
}

/**
 * Counts one view if this is a human visit that is not a repeat, and resolves once the count is committed
 * (the page is sent after that, so a served page is a counted page, even across a kill -9). A visitor with
 * our cookie is a repeat; one without it is recognised by an HMAC of IP and User-Agent kept for the window.
 * One address (IPv6: one /64) adds at most `config.maxViewsPerAddress` views to a link per window, however
 * many User-Agents it claims.
 *
 * Group commit: the visits that arrive in one turn of the event loop are written together in one transaction
 * and one fsync: a mark per visit (new or expired → it counts), then one `views = views + n` per link and per file for
 * the marks that counted. One fsync and two statements per visit capped a page at ~2,000 views/s on this
 * hardware. N concurrent distinct visitors still add exactly N, a repeat inside the same group is still a
 * repeat, and the marks and the counts commit together or not at all.
 */
export function createViewCounter(ctx: AppContext): CountView {
  const perAddress = ctx.config.maxViewsPerAddress
  let queue: Pending[] = []
  let lastSweep = 0
  const flush = async () => {
    const batch = queue
    queue = []
    const now = ctx.now()
    const groups = batch.map((pending) => pending.group)
    const sweeping = now - lastSweep > SWEEP_INTERVAL_MS
    if (sweeping) {
      lastSweep = now
      groups.push([{ sql: SWEEP, args: [now - REPEAT_WINDOW_MS] }])
    }
    try {
      const counted = (result: GroupResult | undefined) => Array.isArray(result) && result[0] === 1
      const addViews = (results: GroupResult[]) => {
        const toLinks = new Map<string, number>()
        const toFiles = new Map<string, number>()
        const add = (map: Map<string, number>, id: string) => map.set(id, (map.get(id) ?? 0) + 1)
        batch.forEach((pending, i) => {
          if (!counted(results[i])) return
          add(toLinks, pending.link.id)
          add(toFiles, pending.link.fileId)
        })
        return [
          ...[...toLinks].map(([id, n]) => ({ sql: ADD_LINK_VIEWS, args: [n, id] })),
          ...[...toFiles].map(([id, n]) => ({ sql: ADD_FILE_VIEWS, args: [n, id] })),
        ]
      }
      const results = await ctx.sql.runGroups(groups, addViews)
      batch.forEach((pending, i) => {
        const result = results[i]
        // A constraint failure means the file was deleted after its page was looked up: nothing to count.
        if (result instanceof Error) isConstraintFailure(result) ? pending.resolve(false) : pending.reject(result)
        else pending.resolve(counted(result))
      })
    } catch (error) {
      for (const pending of batch) pending.reject(error)
    }
  }
  return ({ link, visit }) => {
    if (!isHumanVisit(visit) || visit.seenCookie) return Promise.resolve(false)
    const now = ctx.now()
    const since = now - REPEAT_WINDOW_MS
    // base64url has no '.' or '/': every id of one address sorts between `tag.` and `tag/`.
    const tag = hmac(ctx.signingKey, `address\n${addressGroup(visit.clientIp)}`).slice(0, 16)
    const visitor = `${tag}.${hmac(ctx.signingKey, `${visit.clientIp}\n${visit.userAgent}`)}`
    const mark =
      perAddress > 0
        ? { sql: MARK_WITHIN_ADDRESS_BOUND, args: [link.id, visitor, now, link.id, `${tag}.`, `${tag}/`, since, perAddress, since] }
        : { sql: MARK, args: [link.id, visitor, now, since] }
    const group = [mark]
    return new Promise<boolean>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush)
      queue.push({ link, group, resolve, reject })
    })
  }
}

const isConstraintFailure = (error: Error) => errorCodes(error).some((code) => code.startsWith('SQLITE_CONSTRAINT'))
const hmac = (key: Uint8Array, text: string) => createHmac('sha256', key).update(text).digest('base64url')
