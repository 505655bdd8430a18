import type { AppContext } from '../../context'
import { listUsers, setQuota, setUserState, userWithId } from '../users/users'
import type { Usage } from '../../files/usage'
import type { UserRow } from '../../../db/tables'
import { emailIsTheOwners, ownCredentialsThroughAdmin } from '../../../errors'
import { resetTwoFactor } from '../two-factor'
import { removeAllPasskeys } from '../passkeys'
import { askSsoLink } from '../sso/link'
import { removeEmail } from '../email/change'
import { type AdminChange, tellOwner } from '../admin-notice'

export type AccountChange = {
  disabled?: boolean
  admin?: boolean
  twoFactor?: false
  ssoEmail?: string | null
  /** Only null: an admin may remove a user's email, never set one (only its owner can, confirmed by mail). */
  email?: string | null
  maxBytes?: number | null
  maxFiles?: number | null
}

/** What an admin changed of a user, and the user as it is now (with usage, for the admin page). */
export type ChangedAccount = { before: UserRow; after: UserRow & { usage: Usage; passkeys: number }; passkeysRemoved: number }

/**
 * Applies an admin's change to a user: state first (refused when it would leave no enabled admin), then two-factor
 * reset, single sign-on link, email, limits; then the user is mailed what changed in how they sign in. An email
 * to set is refused before anything applies: the address resets go to would be a way into the account. So is a
 * change of how the admin's own account signs in (`byId`): the admin routes take any token with `admin`, an API
 * token too, and ask no password, which the Account page's routes do (docs/sign-in.md, Changing how you sign in).
 */
export async function changeAccount(
  ctx: AppContext,
  input: { id: string; by: string; byId: string; change: AccountChange },
): Promise<ChangedAccount> {
  const { disabled, admin, twoFactor, ssoEmail, email, maxBytes, maxFiles } = input.change
  if (email !== undefined && email !== null) throw emailIsTheOwners()
  if (input.id === input.byId && (twoFactor !== undefined || ssoEmail !== undefined || email !== undefined))
    throw ownCredentialsThroughAdmin()
  const before = await userWithId(ctx, input.id)
  if (disabled !== undefined || admin !== undefined) await setUserState(ctx, { id: before.id, disabled, admin })
  const passkeysRemoved = twoFactor === false ? await resetSecondFactors(ctx, before.id) : 0
  if (ssoEmail !== undefined) await askSsoLink(ctx, { userId: before.id, email: ssoEmail })
  if (email === null) await removeEmail(ctx, { userId: before.id, withPending: false })
  if (maxBytes !== undefined || maxFiles !== undefined) await setQuota(ctx, { name: before.name, maxBytes, maxFiles })
  const after = (await listUsers(ctx)).find((user) => user.id === before.id)
  if (!after) return changeAccount(ctx, input) // removed meanwhile: the next read answers 404
  await tellOwner(ctx, { user: before, admin: input.by, changes: changesToTell(input.change, before, after, passkeysRemoved) })
  return { before, after, passkeysRemoved }
}

/** What the owner is told of: what changed how the account is signed in to or recovered. */
function changesToTell(change: AccountChange, before: UserRow, after: UserRow, passkeysRemoved: number): AdminChange[] {
  const changes: AdminChange[] = []
  if (change.email === null && before.email !== null) changes.push({ kind: 'email removed' })
  if (typeof change.ssoEmail === 'string' && after.ssoLinkEmail !== null)
    changes.push({ kind: 'sso link asked', ssoEmail: after.ssoLinkEmail })
  if (change.ssoEmail === null && before.ssoLinkEmail !== null) changes.push({ kind: 'sso link withdrawn' })
  if (change.twoFactor === false && (before.totpEnabledAt !== null || passkeysRemoved > 0)) {
    changes.push({ kind: 'two-factor reset', passkeysRemoved })
  }
  return changes
}

/** A lost phone or key: the TOTP app and recovery codes go, and so do the passkeys. */
async function resetSecondFactors(ctx: AppContext, userId: string): Promise<number> {
  await resetTwoFactor(ctx, userId)
  return removeAllPasskeys(ctx, userId)
}
