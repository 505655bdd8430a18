import type { AppContext } from '../../../core/context'
import { listUsers, setQuota, setUserState, userWithId } from '../../../core/accounts/users/users'
import type { Usage } from '../../../core/files/usage'
import type { UserRow } from '../../../db/tables'
import { resetTwoFactor } from '../../../core/accounts/two-factor'
import { removeAllPasskeys } from '../../../core/accounts/passkeys'
import { allowSsoLink } from '../../../core/accounts/sso/sign-in'
import { setEmail } from '../../../core/accounts/password-reset'

export type AccountChange = {
  disabled?: boolean
  admin?: boolean
  twoFactor?: false
  ssoEmail?: string | null
  email?: string | null
  maxBytes?: number | null
  maxFiles?: number | null
}

/** What an admin changed of a user, and the user as it is now (with usage, for the admin page). */
export type ChangedAccount = { before: UserRow; after: UserRow & { usage: Usage; passkeys: number }; passkeysRemoved: number }

/** Applies an admin's change to a user: state first (refused when it would leave no enabled admin), then two-factor reset, then limits. */
export async function changeAccount(ctx: AppContext, input: { id: string; change: AccountChange }): Promise<ChangedAccount> {
  const { disabled, admin, twoFactor, ssoEmail, email, maxBytes, maxFiles } = input.change
  const before = await userWithId(ctx, input.id)
  if (disabled !== undefined || admin !== undefined) await setUserState(ctx, { id: before.id, disabled, admin })
  const passkeysRemoved = twoFactor === false ? await resetSecondFactors(ctx, before.id) : 0
  if (ssoEmail !== undefined) await allowSsoLink(ctx, { userId: before.id, email: ssoEmail })
  if (email !== undefined) await setEmail(ctx, { userId: before.id, email })
  if (maxBytes !== undefined || maxFiles !== undefined) await setQuota(ctx, { name: before.name, maxBytes, maxFiles })
  const after = (await listUsers(ctx)).find((user) => user.id === before.id)
  if (!after) return changeAccount(ctx, input) // removed meanwhile: the next read answers 404
  return { before, after, passkeysRemoved }
}

/** A lost phone or key: the TOTP app and recovery codes go, and so do the passkeys. */
async function resetSecondFactors(ctx: AppContext, userId: string): Promise<number> {
  await resetTwoFactor(ctx, userId)
  return removeAllPasskeys(ctx, userId)
}
