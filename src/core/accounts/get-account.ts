import type { AppContext } from '../context'
import { usageOf } from '../files/usage'
import type { MeDto } from '../../routes/auth/model'
import { findUserById, limitsOf } from './users/users'
import { recoveryCodesLeft, twoFactorOn } from './two-factor'
import { pendingEmailOf } from './email/change'
import { isLanguage } from '../../shared/languages'

/** The caller's account: who they are, what they use and what their plan allows. */
export async function getAccount(ctx: AppContext, input: { userId: string }): Promise<MeDto> {
  const user = await findUserById(ctx, input.userId)
  const usage = await usageOf(ctx, user.id)
  const twoFactor = twoFactorOn(user)
    ? { enabled: true, recoveryCodesLeft: await recoveryCodesLeft(ctx, user.id) }
    : { enabled: false, recoveryCodesLeft: 0 }
  return {
    id: user.id,
    name: user.name,
    admin: user.isAdmin,
    hasPassword: user.passwordHash !== null,
    email: user.email,
    pendingEmail: await pendingEmailOf(ctx, user.id),
    language: isLanguage(user.language) ? user.language : null,
    ssoLink: user.ssoLinkEmail === null ? null : { email: user.ssoLinkEmail, allowed: user.ssoLinkAllowed },
    twoFactor,
    usage,
    limits: { ...limitsOf(user), maxFileSize: ctx.config.maxFileSize },
  }
}
