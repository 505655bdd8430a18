import { signInsBusy } from '../../errors'
import { createLimiter, QueueFullError } from '../../lib/concurrency'

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes) rather than Bun's default 64 MiB: a NAS with
 * 1 GB of RAM must survive a burst of sign-ins. At most two hashes or checks run at once (each holds its
 * memory while it runs), for user passwords and share-link passwords alike; at most MAX_QUEUED wait their
 * turn, and beyond that a check is `server_busy` with a retry hint rather than a wait of many seconds. The
 * PHC string carries its own parameters and salt, so they can be raised later without breaking stored passwords.
 */
const ARGON2 = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const
/** Well under a second of waiting on a 2-core machine, a few seconds on a slow NAS (BENCHMARKS.md, Design measurements). */
const MAX_QUEUED = 32
const oneAtATime = createLimiter(2, MAX_QUEUED)
const queued = <T>(task: () => Promise<T>): Promise<T> =>
  oneAtATime(task).catch((error: unknown) => {
    throw error instanceof QueueFullError ? signInsBusy() : error
  })

/** The PHC string to store for a new password. */
export const hashPassword = (password: string) => queued(() => Bun.password.hash(password, ARGON2))

/** Whether `password` matches the stored PHC string. A stored hash that cannot be read is a mismatch; a full queue is not (it throws `server_busy`). */
export const verifyPassword = (password: string, stored: string) => queued(() => Bun.password.verify(password, stored).catch(() => false))
