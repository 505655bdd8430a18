import { hashPassword, verifyPassword } from '../../core/accounts/password-hashing'
import { randomId } from '../../lib/ids'

export const PASSWORD_MIN_CHARACTERS = 8
/** argon2 takes any length; this only keeps a request from making the server hash megabytes. */
export const PASSWORD_MAX_BYTES = 1024

/** What is wrong with a new password, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_CHARACTERS) return `A password needs at least ${PASSWORD_MIN_CHARACTERS} characters`
  if (Buffer.byteLength(password) > PASSWORD_MAX_BYTES) return `A password may have at most ${PASSWORD_MAX_BYTES} bytes`
  return undefined
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
    // A decoy that could not be made (the queue was full) is not kept: the next unknown name tries again.
    decoy ??= hashPassword(randomId()).catch((error: unknown) => {
      decoy = undefined
      throw error
    })
    await verifyPassword(password, await decoy)
    return false
  }
  return verifyPassword(password, storedHash)
}
