import type { Scope } from '../accounts/scopes'

/** A member's role in a team (docs/teams.md, Roles). */
export const TEAM_ROLES = ['owner', 'editor', 'viewer'] as const
export type TeamRole = (typeof TEAM_ROLES)[number]

export const isTeamRole = (value: unknown): value is TeamRole => (TEAM_ROLES as readonly unknown[]).includes(value)

const VIEWER: readonly Scope[] = ['files:read', 'analytics:read']
const EDITOR: readonly Scope[] = [...VIEWER, 'files:write', 'links:write', 'requests:write', 'webhooks:write']

/**
 * What a role may do through a team token, as scopes: a team token's request may do what its token's scopes
 * and this set both hold (core/accounts/authenticate.ts). `account` (the user's own tokens) and `admin` are never
 * a team's: a team token acts for the team, never for its user's account or the instance.
 */
export const ROLE_SCOPES: Readonly<Record<TeamRole, ReadonlySet<Scope>>> = {
  viewer: new Set(VIEWER),
  editor: new Set(EDITOR),
  owner: new Set<Scope>([...EDITOR, 'teams:write']),
}
