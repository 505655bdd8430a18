import type { Usage } from '../../files/usage'
import type { InvitationRow, TokenRow, UserRow } from '../../../db/tables'
import { scopesOfColumn } from '../scopes'
import type { AdminTokenDto, AdminUserDto, InvitationDto } from '../../../routes/admin/model'

const iso = (ms: number) => new Date(ms).toISOString()
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))

/** A user as the admin page shows them: never their password hash, files or tokens' values. */
export function toAdminUserDto(user: UserRow & { usage: Usage; passkeys: number }): AdminUserDto {
  return {
    id: user.id,
    name: user.name,
    admin: user.isAdmin,
    disabled: user.disabledAt !== null,
    createdAt: iso(user.createdAt),
    lastSignInAt: isoOrNull(user.lastSignInAt),
    hasPassword: user.passwordHash !== null,
    twoFactor: user.totpEnabledAt !== null,
    ssoEmail: user.ssoLinkEmail,
    ssoEmailAllowedByUser: user.ssoLinkAllowed,
    passkeys: user.passkeys,
    email: user.email,
    usage: user.usage,
    limits: { maxStorageBytes: user.maxBytes, maxFiles: user.maxFiles },
  }
}

export function toAdminTokenDto(token: TokenRow & { userName: string }, now: number): AdminTokenDto {
  return {
    id: token.id,
    label: token.label,
    user: { id: token.userId, name: token.userName },
    scopes: token.scopes === null ? null : [...scopesOfColumn(token.scopes)],
    createdAt: iso(token.createdAt),
    expiresAt: isoOrNull(token.expiresAt),
    status: token.revokedAt !== null ? 'revoked' : token.expiresAt !== null && token.expiresAt <= now ? 'expired' : 'active',
  }
}

export function toInvitationDto(row: InvitationRow): InvitationDto {
  return {
    id: row.id,
    admin: row.admin,
    limits: { maxStorageBytes: row.maxBytes, maxFiles: row.maxFiles },
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
    team: row.teamId === null ? null : { id: row.teamId, role: row.teamRole ?? '' },
  }
}
