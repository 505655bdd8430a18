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
    },
    (table) => [k.primaryKey({ columns: [table.teamId, table.userId] }), k.index('team_members_user_idx').on(table.userId)],
  )
  return { teamMembers }
}
