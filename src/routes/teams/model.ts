import { t, type Static } from 'elysia'
import { oneOf } from '../../http/schemas'
import { TEAM_ROLES } from '../../core/teams/roles'
import { TEAM_NAME_MAX } from '../../core/teams/rules'

const NOT_AN_OBJECT = { additionalProperties: true, error: () => 'The body must be a JSON object' }

const RoleSchema = oneOf(TEAM_ROLES, {
  description: 'owner: everything, members and the team itself; editor: change files, links, rooms, requests, webhooks; viewer: read',
})

/** A team as its members see it (docs/teams.md). */
export const TeamSchema = t.Object(
  {
    id: t.String({ description: "Opaque; a team token's `team`, a file move's `team`" }),
    name: t.String({ description: `At most ${TEAM_NAME_MAX} characters` }),
    role: RoleSchema,
    createdAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
    updatedAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
  },
  { title: 'Team' },
)
export type TeamDto = Static<typeof TeamSchema>

const PendingSchema = t.Object(
  {
    invitationId: t.String({ description: 'Revoke with DELETE /api/teams/:id/invitations/:invitationId' }),
    email: t.String({ description: 'The invited address' }),
    expiresAt: t.String({ description: 'ISO 8601; 7 days after it was made' }),
    mailed: t.Optional(t.Boolean({ description: 'In the answer that made it: whether the link was mailed (the server has mail)' })),
    url: t.Optional(
      t.Union([t.String(), t.Null()], {
        description: 'In the answer that made it, when the server has no mail: the link to pass on (shown once); null when mailed',
      }),
    ),
  },
  { description: 'A pending invitation to an address without an account (its owners see them); absent for a member' },
)

export const MemberSchema = t.Object(
  {
    userId: t.Union([t.String(), t.Null()], { description: 'null: a pending invitation' }),
    name: t.String({ description: "The member's user name (a pending invitation: the invited address)" }),
    role: RoleSchema,
    since: t.String({ description: 'When they joined (or were invited), ISO 8601' }),
    pending: t.Optional(PendingSchema),
  },
  { title: 'TeamMember' },
)
export type MemberDto = Static<typeof MemberSchema>

export const TeamEnvelope = t.Object({ success: t.Literal(true), data: TeamSchema })
export const TeamListEnvelope = t.Object({ success: t.Literal(true), data: t.Array(TeamSchema) })
export const MemberEnvelope = t.Object({ success: t.Literal(true), data: MemberSchema })
export const MemberListEnvelope = t.Object({ success: t.Literal(true), data: t.Array(MemberSchema) })
export const TeamDeletedEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Object({ id: t.String(), removedFiles: t.Integer({ description: "The team's files deleted with it" }) }),
})
export const MemberRemovedEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ userId: t.String() }) })

/** A dashboard's team session (docs/teams.md, The dashboard): a team token that lives and dies with the sign-in session. */
export const TeamSessionSchema = t.Object(
  {
    token: t.String({ description: 'The team session token (a JWT); in this answer only' }),
    tokenId: t.String(),
    expiresAt: t.Union([t.String(), t.Null()], { description: "The sign-in session's expiry, ISO 8601" }),
    team: TeamSchema,
  },
  { title: 'TeamSession' },
)
export type TeamSessionDto = Static<typeof TeamSessionSchema>
export const TeamSessionEnvelope = t.Object({ success: t.Literal(true), data: TeamSessionSchema })

export const TeamIdParams = t.Object({ id: t.String({ maxLength: 64 }) })
export const MemberParams = t.Object({ id: t.String({ maxLength: 64 }), userId: t.String({ maxLength: 64 }) })
export const InvitationParams = t.Object({ id: t.String({ maxLength: 64 }), invitationId: t.String({ maxLength: 64 }) })

const name = t.String({ minLength: 1, maxLength: TEAM_NAME_MAX * 4, description: `At most ${TEAM_NAME_MAX} characters, not blank` })

/** The body of POST /api/teams and PATCH /api/teams/:id. */
export const TeamJson = t.Object({ name }, NOT_AN_OBJECT)

/** The body of POST /api/teams/:id/members: an existing account, by user name or email (or an address to invite), and its role. */
export const NewMemberJson = t.Object(
  {
    username: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
    email: t.Optional(t.String({ minLength: 3, maxLength: 254 })),
    role: RoleSchema,
  },
  NOT_AN_OBJECT,
)

/** The body of PATCH /api/teams/:id/members/:userId. */
export const MemberRoleJson = t.Object({ role: RoleSchema }, NOT_AN_OBJECT)
