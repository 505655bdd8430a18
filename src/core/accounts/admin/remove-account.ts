import type { AppContext } from '../../context'
import { usageOf } from '../../files/usage'
import { removeUser, userWithId } from '../users/users'
import { conflict } from '../../../errors'

/**
 * An admin removes a user: with their files only when asked (`deleteFiles`), said plainly otherwise (409);
 * never the last enabled admin (409, decided by the deleting statements). Their tokens go with them.
 */
export async function removeAccount(
  ctx: AppContext,
  input: { id: string; deleteFiles: boolean },
): Promise<{ id: string; name: string; removedFiles: number }> {
  const user = await userWithId(ctx, input.id)
  const usage = await usageOf(ctx, user.id)
  if (usage.files > 0 && !input.deleteFiles) {
    throw conflict(
      `${user.name} owns ${usage.files} file(s); remove them together with the user (?deleteFiles=true), or keep the user and disable them`,
    )
  }
  const removed = await removeUser(ctx, { name: user.name, deleteFiles: input.deleteFiles, keepAnAdmin: true })
  return { id: removed.id, name: user.name, removedFiles: removed.removedFiles }
}
