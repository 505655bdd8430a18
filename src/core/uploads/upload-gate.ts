import type { AppContext } from '../context'
import { type SharedUploadSlots, sharedUploadSlots } from '../limits/upload-slots'
import { tooManyUploadsForUser, uploadsBusy } from '../../errors'

export type UploadGate = {
  /** Takes an upload slot for `userId`, or refuses at once when no slot is free; resolves with its release. */
  take(userId: string): Promise<() => Promise<void>>
  /** Runs `work` holding a slot (taken and released around it). */
  run<T>(userId: string, work: () => Promise<T>): Promise<T>
}

/**
 * Bounds the uploads that stream at the same time, in total and per user: each holds a socket, a temp file
 * and a hash state, and a client opening hundreds at once should not starve everyone else. Refusals are
 * immediate (no queue): the client retries after Retry-After. The total is this instance's own (its sockets,
 * its disk); the per-user bound holds across instances when `shared` slots are given.
 */
export function createUploadGate(limits: { total: number; perUser: number }, shared?: SharedUploadSlots): UploadGate {
  let total = 0
  const perUser = new Map<string, number>()
  const take = async (userId: string) => {
    const mine = perUser.get(userId) ?? 0
    if (mine >= limits.perUser) throw tooManyUploadsForUser(limits.perUser)
    if (total >= limits.total) throw uploadsBusy()
    total++
    perUser.set(userId, mine + 1)
    let releaseShared: (() => Promise<void>) | undefined
    let released = false
    const release = async () => {
      if (released) return
      released = true
      total--
      const left = (perUser.get(userId) ?? 1) - 1
      if (left > 0) perUser.set(userId, left)
      else perUser.delete(userId)
      await releaseShared?.()
    }
    if (shared) {
      try {
        releaseShared = await shared.take(userId, limits.perUser)
      } catch (error) {
        await release()
        throw error
      }
      if (!releaseShared) {
        await release()
        throw tooManyUploadsForUser(limits.perUser)
      }
    }
    return release
  }
  return {
    take,
    async run(userId, work) {
      const release = await take(userId)
      try {
        return await work()
      } finally {
        await release()
      }
    },
  }
}

/** The gate of this server: with the per-user slots in the database when instances share PostgreSQL. */
export function uploadGateFor(ctx: AppContext): UploadGate {
  const limits = { total: ctx.config.maxUploads, perUser: ctx.config.maxUploadsPerUser }
  return createUploadGate(limits, sharedUploadSlots(ctx))
}
