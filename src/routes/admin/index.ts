import { Elysia } from 'elysia'
import { createInvitation, invitationUrl, pendingInvitations, revokeInvitation } from '../../core/accounts/invitations'
import { askedLanguage } from '../../http/asked-language'
import { listTokens } from '../../core/accounts/tokens/list-tokens'
import { revokeToken } from '../../core/accounts/tokens/revoke-token'
import { listUsers } from '../../core/accounts/users/users'
import type { AppContext } from '../../core/context'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import {
  AdminTeamEnvelope,
  AdminTeamListEnvelope,
  AdminTokenListEnvelope,
  TeamQuotaBody,
  AdminUserEnvelope,
  AdminUserListEnvelope,
  InvitationBody,
  InvitationListEnvelope,
  NewInvitationEnvelope,
  RemovedUserEnvelope,
  RemoveUserQuery,
  RevokedInvitationEnvelope,
  RevokedTokenEnvelope,
  TokensQuery,
  UserChangeBody,
  UserIdParams,
} from './model'
import { toAdminTokenDto, toAdminUserDto, toInvitationDto } from '../../core/accounts/admin/presenter'
import { changeAccount } from '../../core/accounts/admin/change-account'
import { successionEntries } from '../../core/teams/succession'
import { removeAccount } from '../../core/accounts/admin/remove-account'
import { listTeamsForAdmin, setTeamQuota } from '../../core/teams/admin-teams'
import { toAdminTeamDto } from '../../core/teams/presenter'

const tags = ['admin']
const failures = { 400: FailureSchema, 403: FailureSchema, ...authFailures }

/**
 * What admins do in the dashboard instead of a shell: users (list, change, remove), invitations and every user's
 * tokens, under /api/admin, all needing the `admin` scope (so only admins). Nothing here reads a user's files.
 */
export function adminRoutes(ctx: AppContext, auth: AuthGuard) {
  return new Elysia({ name: 'admin', prefix: '/api/admin' })
    .use(auth)
    .get('/users', async () => ({ success: true as const, data: (await listUsers(ctx)).map(toAdminUserDto) }), {
      auth: 'admin',
      response: { 200: AdminUserListEnvelope, ...failures },
      detail: { summary: 'Every user with usage, limits, role and state, by name', tags },
    })
    .patch(
      '/users/:id',
      async ({ params, body, caller, audit }) => {
        const { before, after, passkeysRemoved } = await changeAccount(ctx, {
          id: params.id,
          by: caller.userName,
          byId: caller.userId,
          change: {
            disabled: body.disabled,
            admin: body.admin,
            twoFactor: body.twoFactor,
            ssoEmail: body.ssoEmail,
            email: body.email,
            maxBytes: body.maxStorageBytes,
            maxFiles: body.maxFiles,
          },
        })
        const about = { name: after.name }
        if (body.disabled !== undefined && body.disabled !== (before.disabledAt !== null))
          await audit(body.disabled ? 'user.disabled' : 'user.enabled', about, after.id)
        if (body.admin !== undefined && body.admin !== before.isAdmin)
          await audit('user.admin_set', { ...about, admin: body.admin }, after.id)
        if (body.email !== undefined && body.email !== before.email)
          await audit('user.email_set', { ...about, email: after.email }, after.id)
        if (body.ssoEmail !== undefined && (after.ssoLinkEmail !== before.ssoLinkEmail || before.ssoLinkAllowed)) {
          await audit('user.sso_link_set', { ...about, ssoEmail: after.ssoLinkEmail }, after.id)
        }
        if (body.twoFactor === false && (before.totpEnabledAt !== null || passkeysRemoved > 0)) {
          await audit('two_factor.reset', { ...about, passkeysRemoved }, after.id)
        }
        if (body.maxStorageBytes !== undefined || body.maxFiles !== undefined) {
          await audit('user.quota_set', { ...about, maxBytes: after.maxBytes, maxFiles: after.maxFiles }, after.id)
        }
        return { success: true as const, data: toAdminUserDto(after) }
      },
      {
        auth: 'admin',
        parse: jsonBody(UserChangeBody, 'admin'),
        body: UserChangeBody,
        params: UserIdParams,
        response: { 200: AdminUserEnvelope, 404: FailureSchema, 409: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...failures },
        detail: {
          summary: 'Disable or enable a user, make them an admin or not, set their limits',
          description:
            'The server keeps one enabled admin: a change that would leave none is a 409. An email can only be removed (null): ' +
            'setting one is a 403 account_owner_only, since only the user sets their email. A single sign-on link to an account ' +
            'in use waits for the user to allow it. The user is mailed what changed in how they sign in.',
          tags,
        },
      },
    )
    .get('/teams', async () => ({ success: true as const, data: (await listTeamsForAdmin(ctx)).map(toAdminTeamDto) }), {
      auth: 'admin',
      response: { 200: AdminTeamListEnvelope, ...failures },
      detail: { summary: 'Every team with its members, usage and limits, by name (never its files)', tags },
    })
    .patch(
      '/teams/:id',
      async ({ params, body, audit }) => {
        const team = await setTeamQuota(ctx, { teamId: params.id, maxBytes: body.maxStorageBytes, maxFiles: body.maxFiles })
        await audit('team.quota_set', { teamId: team.id, name: team.name, maxBytes: team.maxBytes, maxFiles: team.maxFiles })
        return { success: true as const, data: toAdminTeamDto(team) }
      },
      {
        auth: 'admin',
        parse: jsonBody(TeamQuotaBody, 'admin'),
        body: TeamQuotaBody,
        params: UserIdParams,
        response: { 200: AdminTeamEnvelope, 404: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...failures },
        detail: { summary: "Set a team's limits (maxStorageBytes, maxFiles; null: unlimited)", tags },
      },
    )
    .delete(
      '/users/:id',
      async ({ params, query, audit }) => {
        const removed = await removeAccount(ctx, { id: params.id, deleteFiles: query.deleteFiles === true })
        await audit('user.removed', { name: removed.name, removedFiles: removed.removedFiles }, removed.id)
        for (const entry of successionEntries(removed.id, removed)) await audit(entry.action, entry.detail, entry.userId)
        const { id, removedFiles, deletedTeams, promotedOwners } = removed
        return { success: true as const, data: { id, removedFiles, deletedTeams, promotedOwners } }
      },
      {
        auth: 'admin',
        params: UserIdParams,
        query: RemoveUserQuery,
        response: { 200: RemovedUserEnvelope, 404: FailureSchema, 409: FailureSchema, ...failures },
        detail: {
          summary: 'Remove a user and their tokens; with ?deleteFiles=true their files too',
          description:
            'A user who owns files is not removed without deleteFiles (409), nor the last enabled admin (409). A team they were the only owner of gets its longest-standing editor (else viewer) as owner (promotedOwners); a team they were the only member of is deleted with its files (deletedTeams), which count as theirs for deleteFiles (docs/teams.md).',
          tags,
        },
      },
    )
    .get(
      '/tokens',
      async ({ query }) => {
        const now = ctx.now()
        return {
          success: true as const,
          data: (await listTokens(ctx, { userName: query.user })).map((token) => toAdminTokenDto(token, now)),
        }
      },
      {
        auth: 'admin',
        query: TokensQuery,
        response: { 200: AdminTokenListEnvelope, 404: FailureSchema, ...failures },
        detail: { summary: "Every user's tokens (never their values), newest first", tags },
      },
    )
    .delete(
      '/tokens/:id',
      async ({ params, audit }) => {
        const revoked = await revokeToken(ctx, { tokenIdOrJwt: params.id })
        await audit('token.revoked', { tokenId: revoked.id, label: revoked.label, by: 'admin' }, revoked.userId)
        return { success: true as const, data: { id: revoked.id } }
      },
      {
        auth: 'admin',
        params: UserIdParams,
        response: { 200: RevokedTokenEnvelope, 404: FailureSchema, ...failures },
        detail: { summary: "Revoke any user's token", tags },
      },
    )
    .get('/invitations', async () => ({ success: true as const, data: (await pendingInvitations(ctx)).map(toInvitationDto) }), {
      auth: 'admin',
      response: { 200: InvitationListEnvelope, ...failures },
      detail: { summary: 'Invitations that still work (not used, revoked or expired), newest first', tags },
    })
    .post(
      '/invitations',
      async ({ body, caller, set, audit, request }) => {
        const { row, secret } = await createInvitation(ctx, {
          createdBy: caller.userId,
          admin: body.admin ?? false,
          maxBytes: body.maxStorageBytes ?? null,
          maxFiles: body.maxFiles ?? null,
          mail: body.email === undefined ? undefined : { to: body.email, from: caller.userName, asked: askedLanguage(request) },
        })
        await audit(
          'invitation.created',
          { invitationId: row.id, admin: row.admin, maxBytes: row.maxBytes, maxFiles: row.maxFiles, mailedTo: body.email ?? null },
          null,
        )
        set.status = 201
        return {
          success: true as const,
          data: { ...toInvitationDto(row), url: invitationUrl(ctx.config.publicUrl, secret), mailedTo: body.email ?? null },
        }
      },
      {
        auth: 'admin',
        parse: jsonBody(InvitationBody, 'admin'),
        body: InvitationBody,
        response: { 201: NewInvitationEnvelope, 413: FailureSchema, 415: FailureSchema, ...failures },
        detail: {
          summary: 'Invite someone: a link, valid 7 days and used once, where they choose a name and a password',
          description: 'The link is in this answer only; give it to the person (the server keeps only a hash of its secret).',
          tags,
        },
      },
    )
    .delete(
      '/invitations/:id',
      async ({ params, audit }) => {
        const revoked = await revokeInvitation(ctx, params.id)
        await audit('invitation.revoked', { invitationId: revoked.id }, null)
        return { success: true as const, data: { id: revoked.id } }
      },
      {
        auth: 'admin',
        params: UserIdParams,
        response: { 200: RevokedInvitationEnvelope, 404: FailureSchema, ...failures },
        detail: { summary: 'Revoke an invitation that was not used yet', tags },
      },
    )
}
