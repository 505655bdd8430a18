import { passwordsBusy } from '../../errors'
import { createLimiter, QueueFullError } from '../../lib/concurrency'

/** argon2 takes any length; this only keeps a request from making the server hash megabytes. */
export const PASSWORD_MAX_BYTES = 1024

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes) rather than Bun's default 64 MiB: a NAS with
 * 1 GB of RAM must survive a burst of sign-ins and link unlocks. One queue for every password of the process
 * (users' and share links'): at most two hashes or checks run at once (each holds its memory while it runs);
 * at most MAX_QUEUED wait their turn, and beyond that the request is `server_busy` with a retry hint rather
 * than a wait of many seconds. The PHC string carries its own parameters and salt, so they can be raised
 * later without breaking stored passwords.
 */
const ARGON2 = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const
/** Well under a second of waiting on a 2-core machine, a few seconds on a slow NAS (BENCHMARKS.md, Design measurements). */
const MAX_QUEUED = 32
const twoAtATime = createLimiter(2, MAX_QUEUED)
const queued = <T>(task: () => Promise<T>): Promise<T> =>
  twoAtATime(task).catch((error: unknown) => {
    throw error instanceof QueueFullError ? passwordsBusy() : error
  })

/** The PHC string to store for a new password. */
export const hashPassword = (password: string) => queued(() => Bun.password.hash(password, ARGON2))
// A stored hash that cannot be read is a mismatch; a full queue is not (it must not pass for a wrong password).
const verify = (password: string, stored: string) => queued(() => Bun.password.verify(password, stored).catch(() => false))

/**
 * What is checked when there is no hash: a PHC string with ARGON2's parameters and a salt and hash of the sizes
 * Bun writes (32 bytes each). No password gives this hash, and the answer is no in any case; checking it costs
 * what checking a real one costs.
 */
export const DECOY_HASH = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=1$${'A'.repeat(43)}$${'A'.repeat(43)}`

/**
 * Checks a password against a stored hash. With no hash (an unknown user, or one without a password) a
 * decoy hash is verified all the same and the answer is no: every failure costs one argon2 verification,
 * so the time taken does not tell which user names exist.
 */
export async function passwordMatches(password: string, storedHash: string | null | undefined): Promise<boolean> {
  if (Buffer.byteLength(password) > PASSWORD_MAX_BYTES) return false
  if (!storedHash) {
    await verify(password, DECOY_HASH)
    return false
  }
  return verify(password, storedHash)
}
