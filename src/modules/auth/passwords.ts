import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { users } from '../../db/schema'
import { AppError, badRequest } from '../../errors'
import { createLimiter } from '../../lib/concurrency'
import { randomId } from '../../lib/ids'
import { findUserByName } from './users'

export const PASSWORD_MIN_CHARACTERS = 8
/** argon2 takes any length; this only keeps a request from making the server hash megabytes. */
export const PASSWORD_MAX_BYTES = 1024

/** What is wrong with a new password, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_CHARACTERS) return `A password needs at least ${PASSWORD_MIN_CHARACTERS} characters`
  if (Buffer.byteLength(password) > PASSWORD_MAX_BYTES) return `A password may have at most ${PASSWORD_MAX_BYTES} bytes`
  return undefined
}

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes) rather than Bun's default 64 MiB: a NAS with
 * 1 GB of RAM must survive a burst of sign-ins. At most two hashes or checks run at once (each holds its
 * memory while it runs); the rest wait their turn. The PHC string carries its own parameters and salt, so
 * they can be raised later without breaking stored passwords.
 */
const ARGON2 = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const
const oneAtATime = createLimiter(2)
const hash = (password: string) => oneAtATime(() => Bun.password.hash(password, ARGON2))
const verify = (password: string, stored: string) => oneAtATime(() => Bun.password.verify(password, stored)).catch(() => false)

export async function setPassword(ctx: AppContext, input: { name: string; password: string }): Promise<void> {
  const problem = passwordProblem(input.password)
  if (problem) throw badRequest(problem)
  const user = await findUserByName(ctx, input.name)
  await ctx.db.update(users).set({ passwordHash: await hash(input.password) }).where(eq(users.id, user.id))
}

let decoy: Promise<string> | undefined

/**
 * Checks a password against a stored hash. With no hash (an unknown user, or one without a password) a
 * decoy hash is verified all the same and the answer is no: every failure costs one argon2 verification,
 * so the time taken does not tell which user names exist.
 */
export async function passwordMatches(password: string, storedHash: string | null | undefined): Promise<boolean> {
  if (Buffer.byteLength(password) > PASSWORD_MAX_BYTES) return false
  if (!storedHash) {
    decoy ??= hash(randomId())
    await verify(password, await decoy)
    return false
  }
  return verify(password, storedHash)
}

/** One answer for every failed sign-in, whatever the reason. */
export const invalidCredentials = () => new AppError(401, 'unauthorized', 'Wrong user name or password')
