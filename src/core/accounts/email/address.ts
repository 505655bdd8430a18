import { badRequest } from '../../../errors'

const EMAIL = /^[^\s@]+@[^\s@]+$/

/**
 * An address as accounts keep it (a user's email, an admin's single sign-on link): trimmed and lower-case, so
 * one address is one value to the unique key and to the lookups. A 400 naming `field` when it is not one.
 */
export function accountEmail(raw: string, field: string): string {
  const email = raw.trim().toLowerCase()
  if (!EMAIL.test(email) || email.length > 254) throw badRequest(`${field} must be an email address, or null`)
  return email
}
