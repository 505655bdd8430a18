import { PASSWORD_MAX_BYTES } from '../passwords/argon2'

export const PASSWORD_MIN_CHARACTERS = 8

/** What is wrong with a new password, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_CHARACTERS) return `A password needs at least ${PASSWORD_MIN_CHARACTERS} characters`
  if (Buffer.byteLength(password) > PASSWORD_MAX_BYTES) return `A password may have at most ${PASSWORD_MAX_BYTES} bytes`
  return undefined
}
