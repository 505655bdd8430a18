import { type SQL, sql } from 'drizzle-orm'
import type { Tables } from '../../../db/database'

/**
 * The condition a statement that removes user `id`, demotes or disables them carries so the server keeps an
 * enabled admin: `id` is not an enabled admin, or another user is. Decided inside the statement, never by a read
 * before it: two admins removing each other at once both passed such a read. The embedded database runs one
 * writer at a time, so the second statement sees the first's change. On PostgreSQL every statement and batch
 * runs SERIALIZABLE (db/pg/client.ts): each of the two reads the row the other changes, so one is undone with a
 * serialization failure and run again, and then finds no other admin.
 */
export function keepsAnEnabledAdmin(users: Tables['users'], id: string): SQL {
  const enabledAdmin = (alias: string) => sql.raw(`${alias}.is_admin = true AND ${alias}.disabled_at IS NULL`)
  return sql`(NOT EXISTS (SELECT 1 FROM ${users} AS subject WHERE subject.id = ${id} AND ${enabledAdmin('subject')})
    OR EXISTS (SELECT 1 FROM ${users} AS other WHERE other.id <> ${id} AND ${enabledAdmin('other')}))`
}
