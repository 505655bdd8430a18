import { t, type Static } from 'elysia'
import { oneOf } from '../../http/schemas'
import { SCOPES } from '../../shared/account-shapes'

/**
 * The admin page's shapes (docs/api.md, Admins), written once: routes, OpenAPI document and dashboard types.
 * Nothing here names a file, a link or a token's value: an admin manages accounts, never reads them.
 */

const limits = t.Object({
  maxStorageBytes: t.Union([t.Integer(), t.Null()], { description: 'null = unlimited' }),
  maxFiles: t.Union([t.Integer(), t.Null()], { description: 'null = unlimited' }),
})

export const AdminUserSchema = t.Object(
  {
    id: t.String(),
    name: t.String(),
    admin: t.Boolean(),
    disabled: t.Boolean({ description: 'A disabled user can neither sign in nor use a token' }),
    createdAt: t.String(),
    lastSignInAt: t.Union([t.String(), t.Null()], { description: 'The last password sign-in; null: never' }),
    hasPassword: t.Boolean(),
    twoFactor: t.Boolean({ description: 'Whether their password sign-in also needs a code' }),
    passkeys: t.Integer({ description: 'How many passkeys they sign in with' }),
    email: t.Union([t.String(), t.Null()], { description: 'Where their password resets are mailed' }),
    ssoEmail: t.Union([t.String(), t.Null()], {
      description: 'A verified email whose first single sign-on links to this user (then null); docs/sign-in.md',
    }),
    ssoEmailAllowedByUser: t.Boolean({
      description: 'Whether the user allowed that link; an account in use links only then (one nobody uses yet links at once)',
    }),
    usage: t.Object({ files: t.Integer(), bytes: t.Integer() }),
    limits,
  },
  { title: 'AdminUser' },
)
export type AdminUserDto = Static<typeof AdminUserSchema>

/** A team as an admin sees it (docs/teams.md, Quotas): never its files. */
export const AdminTeamSchema = t.Object(
  {
    id: t.String(),
    name: t.String(),
    createdAt: t.String(),
    members: t.Integer(),
    owners: t.Integer({ description: 'Members with the owner role; 0: a team whose only owner was removed' }),
    usage: t.Object({ files: t.Integer(), bytes: t.Integer({ description: 'Its files and their kept versions' }) }),
    limits,
  },
  { title: 'AdminTeam' },
)
export type AdminTeamDto = Static<typeof AdminTeamSchema>
export const AdminTeamListEnvelope = t.Object({ success: t.Literal(true), data: t.Array(AdminTeamSchema) })
export const AdminTeamEnvelope = t.Object({ success: t.Literal(true), data: AdminTeamSchema })

export const AdminTokenSchema = t.Object(
  {
    id: t.String(),
    label: t.String(),
    user: t.Object({ id: t.String(), name: t.String() }),
    scopes: t.Union([t.Array(oneOf(SCOPES)), t.Null()], { description: 'null: everything its user may do' }),
    createdAt: t.String(),
    expiresAt: t.Union([t.String(), t.Null()]),
    status: oneOf(['active', 'expired', 'revoked']),
  },
  { title: 'AdminToken' },
)
export type AdminTokenDto = Static<typeof AdminTokenSchema>

export const InvitationSchema = t.Object(
  {
    id: t.String(),
    admin: t.Boolean(),
    limits,
    createdAt: t.String(),
    expiresAt: t.String(),
    team: t.Union([t.Object({ id: t.String(), role: t.String() }), t.Null()], {
      description: "A team owner's invitation: the team the new account joins, with the role (docs/teams.md); null: an admin's",
    }),
  },
  { title: 'Invitation' },
)
export type InvitationDto = Static<typeof InvitationSchema>

export const NewInvitationSchema = t.Object({
  ...InvitationSchema.properties,
  url: t.String({ description: 'The link to give the invited person; shown in this answer only' }),
  mailedTo: t.Union([t.String(), t.Null()], { description: 'The address the link is being mailed to (see GET /api/admin/mail)' }),
})

const limit = (name: string) =>
  t.Optional(
    t.Union([t.Integer({ minimum: 0 }), t.Null()], {
      description: `${name}; null: unlimited`,
      error: () => `${name === 'maxStorageBytes' ? 'maxStorageBytes' : 'maxFiles'} must be a whole number from 0, or null for unlimited`,
    }),
  )

/** PATCH /api/admin/users/{id}: what to change; omitted fields stay. Unknown fields are ignored. */
export const UserChangeBody = t.Object(
  {
    disabled: t.Optional(t.Boolean({ error: () => 'disabled must be true or false' })),
    admin: t.Optional(t.Boolean({ error: () => 'admin must be true or false' })),
    twoFactor: t.Optional(
      t.Literal(false, {
        description:
          'false resets their two-factor sign-in and removes their passkeys (a lost phone or key); only its owner can set them up',
        error: () => 'twoFactor can only be false: it resets the user’s two-factor sign-in',
      }),
    ),
    email: t.Optional(
      t.Union([t.String({ maxLength: 254 }), t.Null()], {
        description:
          'null removes where their password resets are mailed; an address is refused (403 account_owner_only): only the user sets it',
        error: () => 'email must be null (it removes the email)',
      }),
    ),
    ssoEmail: t.Optional(
      t.Union([t.String({ maxLength: 254 }), t.Null()], {
        description:
          'Ask that the first single sign-on with this verified email link to this user (an account in use: once the user allows it); null withdraws it',
        error: () => 'ssoEmail must be an email address, or null',
      }),
    ),
    maxStorageBytes: limit('maxStorageBytes'),
    maxFiles: limit('maxFiles'),
  },
  { additionalProperties: true, error: () => 'The JSON body must be an object, e.g. {"disabled": true}' },
)

/** PATCH /api/admin/teams/{id}: a team's limits; omitted fields stay. Unknown fields are ignored. */
export const TeamQuotaBody = t.Object(
  { maxStorageBytes: limit('maxStorageBytes'), maxFiles: limit('maxFiles') },
  { additionalProperties: true, error: () => 'The JSON body must be an object, e.g. {"maxFiles": 100}' },
)

/** POST /api/admin/invitations. Unknown fields are ignored. */
export const InvitationBody = t.Object(
  {
    admin: t.Optional(
      t.Boolean({ error: () => 'admin must be true or false', description: 'Whether the new user is an admin (default false)' }),
    ),
    email: t.Optional(
      t.String({
        minLength: 3,
        maxLength: 254,
        format: 'email',
        description: 'Also send the link to this address (needs PDFSHARE_SMTP_URL)',
        error: () => 'email must be an email address',
      }),
    ),
    maxStorageBytes: limit('maxStorageBytes'),
    maxFiles: limit('maxFiles'),
  },
  { additionalProperties: true, error: () => 'The JSON body must be an object, e.g. {"maxFiles": 100}' },
)

export const UserIdParams = t.Object({ id: t.String({ maxLength: 64 }) })
export const RemoveUserQuery = t.Object({
  deleteFiles: t.Optional(
    t.BooleanString({ description: 'Remove the user together with their files; without it a user who owns files is not removed (409)' }),
  ),
})
export const TokensQuery = t.Object({ user: t.Optional(t.String({ maxLength: 64, description: 'Only this user’s tokens (by name)' })) })

const success = <T extends ReturnType<typeof t.Object> | ReturnType<typeof t.Array>>(data: T) =>
  t.Object({ success: t.Literal(true), data })
export const AdminUserListEnvelope = success(t.Array(AdminUserSchema))
export const AdminUserEnvelope = success(AdminUserSchema)
export const RemovedUserEnvelope = success(
  t.Object({
    id: t.String(),
    removedFiles: t.Integer({ description: "The user's own files deleted with them" }),
    deletedTeams: t.Array(t.Object({ id: t.String(), name: t.String(), removedFiles: t.Integer() }), {
      description: 'Teams the user was the only member of, deleted with their files',
    }),
    promotedOwners: t.Array(t.Object({ teamId: t.String(), teamName: t.String(), userId: t.String(), name: t.String() }), {
      description: 'In each team the user was the only owner of, the member who became its owner',
    }),
  }),
)
export const AdminTokenListEnvelope = success(t.Array(AdminTokenSchema))
export const RevokedTokenEnvelope = success(t.Object({ id: t.String() }))
export const InvitationListEnvelope = success(t.Array(InvitationSchema))
export const NewInvitationEnvelope = success(NewInvitationSchema)
export const RevokedInvitationEnvelope = success(t.Object({ id: t.String() }))
