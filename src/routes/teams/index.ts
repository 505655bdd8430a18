import { Elysia } from 'elysia'
import type { Caller } from '../../core/accounts/authenticate'
import type { AppContext } from '../../core/context'
import { addMember } from '../../core/teams/add-member'
import { changeMemberRole } from '../../core/teams/change-member'
import { renameTeam } from '../../core/teams/change-team'
import { createTeam } from '../../core/teams/create-team'
import { deleteTeam } from '../../core/teams/delete-team'
import { teamRoster } from '../../core/teams/list-members'
import { revokeTeamInvitation } from '../../core/teams/invitations'
import { getTeam, listTeams } from '../../core/teams/list-teams'
import { toMemberDto, toPendingMemberDto, toTeamDto, toTeamSessionDto } from '../../core/teams/presenter'
import { issueTeamSession } from '../../core/accounts/tokens/issue-team-session'
import { tokenFacts } from '../../core/accounts/presenter'
import { removeMember } from '../../core/teams/remove-member'
import type { TeamAsker } from '../../core/teams/team-rows'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import {
  InvitationParams,
  MemberEnvelope,
  MemberListEnvelope,
  MemberParams,
  MemberRemovedEnvelope,
  MemberRoleJson,
  NewMemberJson,
  TeamDeletedEnvelope,
  TeamEnvelope,
  TeamIdParams,
  TeamJson,
  TeamListEnvelope,
  TeamSessionEnvelope,
} from './model'

const tags = ['teams']
const bodyFailures = { 400: FailureSchema, 403: FailureSchema, 404: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures }

/** The user behind the request, and the team their token acts for (a team token reaches that team only). */
const askerOf = (caller: Caller): TeamAsker => ({ userId: caller.userId, tokenTeamId: caller.team?.id ?? null })

/**
 * Teams and their members (docs/teams.md): /api/teams. Reading is files:read (any member); creating a team and
 * every change of a team or its members is teams:write, and the team's owners only (core/teams decides, in the
 * SQL): a member leaving is the one change a member may make without being an owner.
 */
export function teamsRoutes(ctx: AppContext, auth: AuthGuard) {
  const team = (row: Parameters<typeof toTeamDto>[0] & { role: Parameters<typeof toTeamDto>[1] }) => ({
    success: true as const,
    data: toTeamDto(row, row.role),
  })
  return new Elysia({ name: 'teams' })
    .use(auth)
    .post(
      '/api/teams',
      async ({ body, caller, set, audit }) => {
        const row = await createTeam(ctx, { asker: askerOf(caller), name: body.name })
        await audit('team.created', { teamId: row.id, name: row.name })
        set.status = 201
        return team({ ...row, role: 'owner' })
      },
      {
        auth: 'teams:write',
        parse: jsonBody(TeamJson, 'teams:write'),
        body: TeamJson,
        response: { 201: TeamEnvelope, ...bodyFailures },
        detail: { summary: 'Create a team; you are its owner', tags },
      },
    )
    .get(
      '/api/teams',
      async ({ caller }) => ({
        success: true as const,
        data: (await listTeams(ctx, askerOf(caller))).map((row) => toTeamDto(row, row.role)),
      }),
      {
        auth: 'files:read',
        response: { 200: TeamListEnvelope, ...authFailures },
        detail: { summary: 'The teams you are a member of, with your role in each (a team token: its team)', tags },
      },
    )
    .get('/api/teams/:id', async ({ caller, params }) => team(await getTeam(ctx, { asker: askerOf(caller), teamId: params.id })), {
      auth: 'files:read',
      params: TeamIdParams,
      response: { 200: TeamEnvelope, 404: FailureSchema, ...authFailures },
      detail: { summary: 'Get a team of yours', tags },
    })
    .post(
      '/api/teams/:id/session',
      async ({ caller, params, set, audit }) => {
        const issued = await issueTeamSession(ctx, { caller, teamId: params.id })
        await audit('token.issued', { ...tokenFacts(issued.token), teamId: issued.team.id })
        set.status = 201
        return { success: true as const, data: toTeamSessionDto(issued) }
      },
      {
        auth: true,
        params: TeamIdParams,
        response: { 201: TeamSessionEnvelope, 403: FailureSchema, 404: FailureSchema, ...authFailures },
        detail: {
          summary: 'Open a team session from your dashboard sign-in session: a team token that ends with the session',
          description:
            "For the dashboard's team switcher (docs/teams.md, The dashboard). Only a sign-in session may call it (an API token: 403 reauthentication_required; issue a team token with POST /api/tokens instead). The team session acts for the team with what your role allows, is checked for membership on every request, expires and is revoked with the session, and is not listed in GET /api/tokens.",
          tags,
        },
      },
    )
    .patch(
      '/api/teams/:id',
      async ({ body, caller, params, audit }) => {
        const row = await renameTeam(ctx, { asker: askerOf(caller), teamId: params.id, name: body.name })
        await audit('team.changed', { teamId: row.id, name: row.name })
        return team(row)
      },
      {
        auth: 'teams:write',
        parse: jsonBody(TeamJson, 'teams:write'),
        body: TeamJson,
        params: TeamIdParams,
        response: { 200: TeamEnvelope, ...bodyFailures },
        detail: { summary: 'Rename a team (its owners)', tags },
      },
    )
    .delete(
      '/api/teams/:id',
      async ({ caller, params, audit }) => {
        const deleted = await deleteTeam(ctx, { asker: askerOf(caller), teamId: params.id })
        await audit('team.deleted', { teamId: deleted.id, removedFiles: deleted.removedFiles })
        return { success: true as const, data: deleted }
      },
      {
        auth: 'teams:write',
        params: TeamIdParams,
        response: { 200: TeamDeletedEnvelope, 403: FailureSchema, 404: FailureSchema, ...authFailures },
        detail: { summary: 'Delete a team with its files, rooms, requests, webhooks and tokens (its owners)', tags },
      },
    )
    .get(
      '/api/teams/:id/members',
      async ({ caller, params }) => {
        const roster = await teamRoster(ctx, { asker: askerOf(caller), teamId: params.id })
        return { success: true as const, data: [...roster.members.map(toMemberDto), ...roster.invitations.map(toPendingMemberDto)] }
      },
      {
        auth: 'files:read',
        params: TeamIdParams,
        response: { 200: MemberListEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: "A team's members and their roles; for its owners, also its pending invitations (userId null)", tags },
      },
    )
    .post(
      '/api/teams/:id/members',
      async ({ body, caller, params, set, audit }) => {
        const added = await addMember(ctx, {
          asker: { ...askerOf(caller), name: caller.userName },
          teamId: params.id,
          who: { username: body.username, email: body.email },
          role: body.role,
        })
        set.status = 201
        if (added.invitation) {
          const { id, email, role, mailed } = added.invitation
          await audit('invitation.created', { invitationId: id, teamId: params.id, role, mailedTo: mailed ? email : null, email })
          return { success: true as const, data: toPendingMemberDto(added.invitation) }
        }
        const { member } = added
        await audit('team.member_added', { teamId: params.id, userId: member.userId, name: member.name, role: member.role })
        return { success: true as const, data: toMemberDto(member) }
      },
      {
        auth: 'teams:write',
        parse: jsonBody(NewMemberJson, 'teams:write'),
        body: NewMemberJson,
        params: TeamIdParams,
        response: { 201: MemberEnvelope, 409: FailureSchema, ...bodyFailures },
        detail: {
          summary: 'Add an account to a team by user name or email, with a role; invite an email that has no account (its owners)',
          description:
            "An email no account has gets an invitation (userId null, pending set): mailed when the server has mail, else the answer's pending.url is the link to pass on. Accepting it (POST /api/auth/accept-invitation) makes an account that joins the team with the role. It works once, for 7 days, and an owner may revoke it (docs/teams.md, Inviting someone without an account).",
          tags,
        },
      },
    )
    .delete(
      '/api/teams/:id/invitations/:invitationId',
      async ({ caller, params, audit }) => {
        const revoked = await revokeTeamInvitation(ctx, { asker: askerOf(caller), teamId: params.id, invitationId: params.invitationId })
        await audit('invitation.revoked', { invitationId: revoked.id, teamId: params.id, email: revoked.email })
        return { success: true as const, data: toPendingMemberDto(revoked) }
      },
      {
        auth: 'teams:write',
        params: InvitationParams,
        response: { 200: MemberEnvelope, 403: FailureSchema, 404: FailureSchema, ...authFailures },
        detail: { summary: "Revoke a team's pending invitation (its owners); a used, revoked or expired one is a 404", tags },
      },
    )
    .patch(
      '/api/teams/:id/members/:userId',
      async ({ body, caller, params, audit }) => {
        const member = await changeMemberRole(ctx, { asker: askerOf(caller), teamId: params.id, userId: params.userId, role: body.role })
        await audit('team.member_changed', { teamId: params.id, userId: member.userId, role: member.role })
        return { success: true as const, data: toMemberDto(member) }
      },
      {
        auth: 'teams:write',
        parse: jsonBody(MemberRoleJson, 'teams:write'),
        body: MemberRoleJson,
        params: MemberParams,
        response: { 200: MemberEnvelope, 409: FailureSchema, ...bodyFailures },
        detail: { summary: "Change a member's role (its owners); the last owner cannot be demoted (409 last_team_owner)", tags },
      },
    )
    .delete(
      '/api/teams/:id/members/:userId',
      async ({ caller, params, audit }) => {
        const removed = await removeMember(ctx, { asker: askerOf(caller), teamId: params.id, userId: params.userId })
        await audit('team.member_removed', { teamId: params.id, userId: removed.userId })
        return { success: true as const, data: removed }
      },
      {
        auth: 'teams:write',
        params: MemberParams,
        response: { 200: MemberRemovedEnvelope, 403: FailureSchema, 404: FailureSchema, 409: FailureSchema, ...authFailures },
        detail: { summary: 'Remove a member, or leave (the last owner cannot: 409 last_team_owner)', tags },
      },
    )
}
