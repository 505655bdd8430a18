import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { users } from '../../db/schema'
import { AppError, badRequest } from '../../errors'
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

/** argon2id with Bun's defaults (64 MiB, 2 passes): a PHC string that carries its own parameters and salt. */
const hash = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id' })

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
    await Bun.password.verify(password, await decoy).catch(() => false)
    return false
  }
  return Bun.password.verify(password, storedHash).catch(() => false)
}

/** One answer for every failed sign-in, whatever the reason. */
export const invalidCredentials = () => new AppError(401, 'unauthorized', 'Wrong user name or password')
