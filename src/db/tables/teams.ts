import type { AccountTables } from './accounts'
import type { Kit } from './kit'
import type { OwnerTables } from './owners'

/** Who is in a team, with which role (owner, editor or viewer). */
export function teamMemberTables(k: Kit, { teams, users }: { teams: OwnerTables['teams']; users: AccountTables['users'] }) {
  const teamMembers = k.table(
    'team_members',
    {
      teamId: k
        .text('team_id')
        .notNull()
        .references(() => teams.id, { onDelete: 'cascade' }),
      userId: k
        .text('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      /** owner, editor or viewer (core/teams/roles.ts). */
      role: k.text('role').notNull(),
      createdAt: k.millis('created_at').notNull(),
      /**
       * The single sign-on group whose mapping made this membership (PDFSHARE_OIDC_TEAM_GROUPS, docs/teams.md): the
       * mapping keeps it up to date at each sign-in and removes it when the group is gone. NULL: added by hand,
       * which the mapping never touches.
       */
      ssoGroup: k.text('sso_group'),
    },
    (table) => [k.primaryKey({ columns: [table.teamId, table.userId] }), k.index('team_members_user_idx').on(table.userId)],
  )
  return { teamMembers }
}
