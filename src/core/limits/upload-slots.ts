import { and, eq, lte, sql } from 'drizzle-orm'
import { randomId } from '../../lib/ids'
import type { AppContext } from '../context'

/**
 * Where a user's uploads at once are counted when several instances share the database: `take` gives the
 * release of a slot, or undefined when the user already has `perUser` uploads running anywhere.
 */
export type SharedUploadSlots = { take(userId: string, perUser: number): Promise<(() => Promise<void>) | undefined> }

/** A slot's lease: renewed while its upload runs, so one left by a killed instance frees itself this soon. */
const LEASE_MS = 2 * 60 * 1000
const RENEW_MS = 30 * 1000

/**
 * One `upload_leases` row per running upload. Taking one is a single INSERT … SELECT that counts the user's
 * live leases: on PostgreSQL every statement runs SERIALIZABLE (db/pg/client.ts), so two instances taking
 * the last slot at once cannot both succeed; the loser is retried and sees the winner's row.
 */
export function sharedUploadSlots(ctx: AppContext): SharedUploadSlots | undefined {
  const { uploadLeases } = ctx.db.tables
  if (!ctx.db.shared) return undefined // one process: its own count is the whole count
  return {
    async take(userId, perUser) {
      const now = ctx.now()
      await ctx.db.orm.delete(uploadLeases).where(and(eq(uploadLeases.userId, userId), lte(uploadLeases.expiresAt, now)))
      const id = randomId()
      const { rowsAffected } = await ctx.db.orm.run(sql`
        INSERT INTO ${uploadLeases} (id, user_id, expires_at)
        SELECT ${id}, ${userId}, ${now + LEASE_MS}
        WHERE (SELECT count(*) FROM ${uploadLeases} WHERE ${uploadLeases.userId} = ${userId} AND ${uploadLeases.expiresAt} > ${now}) < ${perUser}`)
      if (rowsAffected === 0) return undefined
      const renewal = setInterval(() => {
        ctx.db.orm
          .update(uploadLeases)
          .set({ expiresAt: ctx.now() + LEASE_MS })
          .where(eq(uploadLeases.id, id))
          .catch((error) => ctx.log.error('could not renew an upload slot', error))
      }, RENEW_MS)
      return async () => {
        clearInterval(renewal)
        // A lease that cannot be removed now expires on its own.
        await ctx.db.orm
          .delete(uploadLeases)
          .where(eq(uploadLeases.id, id))
          .catch((error) => ctx.log.error('could not free an upload slot', error))
      }
    },
  }
}
