import { and, eq, or, sql } from 'drizzle-orm'
import type { AppContext } from '../../context'
import { discardBlob } from '../../files/discard-blob'
import { usageOf } from '../../files/usage'
import { type DeletedTeam, namePromotions, promoteHeirs, type PromotedOwner, soloTeams, soloTeamsOf } from '../../teams/succession'
import { badRequest, lastAdmin, userNotFound } from '../../../errors'
import { findUserByName } from './find-user'
import { keepsAnEnabledAdmin } from './last-admin'

/** What a removal did: the user's own files, the teams that went with them, the members who became owners. */
export type RemovedUser = { id: string; removedFiles: number; deletedTeams: DeletedTeam[]; promotedOwners: PromotedOwner[] }

/** The files a removal would delete: the user's own and those of the teams only they are in. */
export async function filesLostWith(ctx: AppContext, userId: string): Promise<{ own: number; teams: DeletedTeam[]; total: number }> {
  const [usage, teams] = await Promise.all([usageOf(ctx, userId), soloTeams(ctx, userId)])
  return { own: usage.files, teams, total: usage.files + teams.reduce((sum, team) => sum + team.removedFiles, 0) }
}

/** The refusal's words for a user whose removal would delete files (theirs, or their solo teams'). */
export function filesLostText(name: string, lost: { own: number; teams: DeletedTeam[] }): string {
  const teams = lost.teams.filter((team) => team.removedFiles > 0)
  const inTeams = teams.length === 0 ? '' : ` (with those of ${teams.map((team) => team.name).join(', ')}, teams only they are in)`
  return `${name} owns ${lost.own + teams.reduce((sum, team) => sum + team.removedFiles, 0)} file(s)${inTeams}`
}

/**
 * Removes a user and their tokens. A user who still owns files is kept unless `deleteFiles` is set, so a
 * typo cannot silently destroy someone's documents. Returns how many files went with them.
 *
 * Their teams (docs/teams.md, When a team's only owner goes), in the same transaction: a team they were the only
 * owner of gets its longest-standing editor (else viewer) as owner (succession.ts); a team they were the only
 * member of is deleted with its files, which count as theirs for `deleteFiles`.
 *
 * With `keepAnAdmin` (an admin's request) the last enabled admin is refused (409), decided inside the deleting
 * statements (last-admin.ts): when it holds, none of them removes anything. The CLI may remove anyone: it is
 * the way back in, and `user add --admin` makes a new admin.
 */
export async function removeUser(
  ctx: AppContext,
  input: { name: string; deleteFiles: boolean; keepAnAdmin?: boolean },
): Promise<RemovedUser> {
  const { files, fileVersions, owners, users } = ctx.db.tables
  const user = await findUserByName(ctx, input.name)
  const lost = await filesLostWith(ctx, user.id)
  if (lost.total > 0 && !input.deleteFiles) {
    throw badRequest(`${filesLostText(input.name, lost)}; pass --delete-files to remove them together with the user`)
  }
  const removable = input.keepAnAdmin ? keepsAnEnabledAdmin(users, user.id) : undefined
  const solo = soloTeamsOf(ctx.db.tables, user.id)
  const theirs = or(eq(files.ownerId, user.id), sql`${files.ownerId} IN ${solo}`)
  const [removedVersions, removedFiles, promoted, removedTeams, removedUser] = await ctx.db.orm.batch([
    ctx.db.orm
      .delete(fileVersions)
      .where(and(sql`${fileVersions.fileId} IN (SELECT ${files.id} FROM ${files} WHERE ${theirs})`, removable))
      .returning({ blobKey: fileVersions.blobKey }),
    ctx.db.orm.delete(files).where(and(theirs, removable)).returning({ blobKey: files.blobKey, ownerId: files.ownerId }),
    promoteHeirs(ctx, user.id, removable),
    // The solo teams go with their owners rows (ON DELETE CASCADE: the team, its rooms, requests, tokens...).
    ctx.db.orm
      .delete(owners)
      .where(and(eq(owners.kind, 'team'), sql`${owners.id} IN ${solo}`, removable))
      .returning({ id: owners.id }),
    // Tokens and memberships go with the user (ON DELETE CASCADE).
    ctx.db.orm
      .delete(users)
      .where(and(eq(users.id, user.id), removable))
      .returning({ id: users.id }),
    // Their rooms, requests, webhooks and channels go with their owners row (ON DELETE CASCADE), removed only
    // when the user row was (the rule above may have kept it).
    ctx.db.orm.delete(owners).where(and(eq(owners.id, user.id), sql`NOT EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${user.id})`)),
  ])
  if (removedUser.length === 0) {
    // Refused by the rule, or removed by someone else meanwhile.
    const [still] = await ctx.db.orm.select({ id: users.id }).from(users).where(eq(users.id, user.id))
    throw still ? lastAdmin() : userNotFound(input.name)
  }
  // Rows first, then bytes (current PDFs and kept versions): a crash in between leaves only unreferenced blobs,
  // which the next start moves aside.
  for (const { blobKey } of [...removedFiles, ...removedVersions]) await discardBlob(ctx, blobKey)
  const gone = new Set(removedTeams.map((team) => team.id))
  const names = new Map(lost.teams.map((team) => [team.id, team.name]))
  return {
    id: user.id,
    removedFiles: removedFiles.filter((file) => file.ownerId === user.id).length,
    deletedTeams: [...gone].map((id) => ({
      id,
      name: names.get(id) ?? '',
      removedFiles: removedFiles.filter((file) => file.ownerId === id).length,
    })),
    promotedOwners: await namePromotions(ctx, promoted),
  }
}
