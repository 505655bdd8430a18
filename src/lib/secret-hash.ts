import { createHash } from 'node:crypto'

/**
 * How a one-time secret we hand out (an invitation, a password reset, a single sign-on handoff, a recovery code)
 * is kept: its SHA-256, hex. Each has at least 79 random bits, so a plain hash is enough, and a database that
 * leaks gives no working secret.
 */
export const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex')
