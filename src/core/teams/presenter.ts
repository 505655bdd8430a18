import type { TeamRow } from '../../db/tables'
import type { MemberDto, TeamDto, TeamSessionDto } from '../../routes/teams/model'
import type { IssuedToken } from '../accounts/tokens/issue-token'
import type { TeamWithRole } from './list-teams'
import type { AdminTeamDto } from '../../routes/admin/model'
import type { AdminTeam } from './admin-teams'
import type { TeamRole } from './roles'
import type { TeamInvitation } from './invitations'

/** A team as the API shows it to a member: with the asker's own role. */
export function toTeamDto(row: Pick<TeamRow, 'id' | 'name' | 'createdAt' | 'updatedAt'>, role: TeamRole): TeamDto {
  return {
    id: row.id,
    name: row.name,
    role,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  }
}

/** A member as the team's members see them: their account's id and name, and their role. */
export function toMemberDto(row: { userId: string; name: string; role: TeamRole; createdAt: number }): MemberDto {
  return { userId: row.userId, name: row.name, role: row.role, since: new Date(row.createdAt).toISOString() }
}

/** A pending invitation as its team's owners see it, among the members (`userId` null, `pending` set). */
export function toPendingMemberDto(invitation: TeamInvitation): MemberDto {
  const iso = (ms: number) => new Date(ms).toISOString()
  const once = invitation.mailed === undefined ? {} : { mailed: invitation.mailed, url: invitation.url ?? null }
  return {
    userId: null,
    name: invitation.email,
    role: invitation.role,
    since: iso(invitation.createdAt),
    pending: { invitationId: invitation.id, email: invitation.email, expiresAt: iso(invitation.expiresAt), ...once },
  }
}

/** A dashboard's team session: its token (shown once), and the team it acts for with the user's role. */
export function toTeamSessionDto(issued: IssuedToken & { team: TeamWithRole }): TeamSessionDto {
  const { token } = issued
  return {
    token: issued.jwt,
    tokenId: token.id,
    expiresAt: token.expiresAt === null ? null : new Date(token.expiresAt).toISOString(),
    team: toTeamDto(issued.team, issued.team.role),
  }
}

/** A team as the admin page shows it: usage and limits, never its files. */
export function toAdminTeamDto(team: AdminTeam): AdminTeamDto {
  return {
    id: team.id,
    name: team.name,
    createdAt: new Date(team.createdAt).toISOString(),
    members: team.members,
    owners: team.owners,
    usage: team.usage,
    limits: { maxStorageBytes: team.maxBytes, maxFiles: team.maxFiles },
  }
}
