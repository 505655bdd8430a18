import { createHmac } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { isbot } from 'isbot'
import type { AppContext } from '../../../context'
import { files, viewMarks } from '../../../db/schema'

/** A repeat visit by the same visitor within this window is not counted again (contract §6). */
export const REPEAT_WINDOW_MS = 30 * 60 * 1000

/** What a request says about itself, for deciding whether it is a human visit. */
export type Visit = {
  method: string
  userAgent: string | null
  /** Sec-Purpose, Purpose, X-Purpose or X-Moz: how browsers mark prefetches and previews. */
  purpose: string | null
  /** The visitor carries our "seen" cookie for this file: they were counted less than 30 minutes ago. */
  seenCookie: boolean
  clientIp: string
}

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

let lastSweep = 0

/**
 * Counts one view if this is a human visit that is not a repeat. A visitor with our cookie is a repeat; one
 * without it is recognised by an HMAC of IP and User-Agent kept for the window. The mark and the increment
 * commit in one transaction, and `views = views + 1` is atomic, so N concurrent distinct visitors add
 * exactly N. Returns whether the view was counted.
 */
export async function countView(ctx: AppContext, input: { fileId: string; visit: Visit }): Promise<boolean> {
  const { visit } = input
  if (!isHumanVisit(visit) || visit.seenCookie) return false
  const now = ctx.now()
  const cutoff = now - REPEAT_WINDOW_MS
  const visitor = createHmac('sha256', ctx.signingKey).update(`${visit.clientIp}\n${visit.userAgent}`).digest('base64url')

  const [mark, increment] = await ctx.db.batch([
    ctx.db.run(sql`INSERT INTO ${viewMarks} (file_id, visitor, seen_at) VALUES (${input.fileId}, ${visitor}, ${now})
      ON CONFLICT (file_id, visitor) DO UPDATE SET seen_at = excluded.seen_at WHERE ${viewMarks.seenAt} <= ${cutoff}`),
    // changes() is the row count of the statement just before: 1 when the mark was new or had expired.
    ctx.db.run(sql`UPDATE ${files} SET views = views + 1 WHERE id = ${input.fileId} AND changes() = 1`),
  ])
  if (now - lastSweep > 10 * 60 * 1000) {
    lastSweep = now
    await ctx.db.run(sql`DELETE FROM ${viewMarks} WHERE ${viewMarks.seenAt} <= ${cutoff}`)
  }
  return mark.rowsAffected === 1 && increment.rowsAffected === 1
}
