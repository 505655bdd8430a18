import type { Kit } from './kit'

/**
 * Owners, and the teams among them (core/teams, docs/teams.md; their members are in ./teams.ts, which needs the
 * users, whose tokens need the teams). Everything that belongs to someone (files, rooms, requests,
 * webhooks, notification channels and their events) names its owner by `owner_id`, which references `owners`:
 * every user and every team has a row there with the same id, so a row is owned by a user or a team alike, and
 * deleting the owners row (a user's removal, a team's deletion) deletes what it owned.
 */
export function ownerTables(k: Kit) {
  /** One row per user (written with the user, deleted with them) and per team (the team's row references it). */
  const owners = k.table('owners', {
    id: k.text('id').primaryKey(),
    /** user or team. */
    kind: k.text('kind').notNull(),
  })

  /** A team: an owner of files with members (team_members). Deleting its owners row deletes it and all it owned. */
  const teams = k.table('teams', {
    id: k
      .text('id')
      .primaryKey()
      .references(() => owners.id, { onDelete: 'cascade' }),
    name: k.text('name').notNull(),
    createdAt: k.millis('created_at').notNull(),
    updatedAt: k.millis('updated_at').notNull(),
    /** The team's limits, as a user's (core/files/quota.ts); NULL = unlimited. */
    maxBytes: k.bigint('max_bytes'),
    maxFiles: k.integer('max_files'),
  })
  return { owners, teams }
}
export type OwnerTables = ReturnType<typeof ownerTables>
