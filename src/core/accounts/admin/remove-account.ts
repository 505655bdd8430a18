import type { AppContext } from '../../context'
import { filesLostText, filesLostWith, type RemovedUser, removeUser, userWithId } from '../users/users'
import { conflict } from '../../../errors'

/**
 * An admin removes a user: with their files only when asked (`deleteFiles`), said plainly otherwise (409);
 * never the last enabled admin (409, decided by the deleting statements). Their tokens go with them. The files
 * of teams only they are in count as theirs; their teams' succession is removeUser's (docs/teams.md).
 */
export async function removeAccount(ctx: AppContext, input: { id: string; deleteFiles: boolean }): Promise<RemovedUser & { name: string }> {
  const user = await userWithId(ctx, input.id)
  const lost = await filesLostWith(ctx, user.id)
  if (lost.total > 0 && !input.deleteFiles) {
    throw conflict(
      `${filesLostText(user.name, lost)}; remove them together with the user (?deleteFiles=true), or keep the user and disable them`,
    )
  }
  const removed = await removeUser(ctx, { name: user.name, deleteFiles: input.deleteFiles, keepAnAdmin: true })
  return { ...removed, name: user.name }
}
