import type { AppContext } from '../context'
import { type FilePage, type ListInput, listOwnedFiles } from '../files/list-files'
import { getOwnedRequest } from './owned-requests'

/**
 * The files that arrived through one of the owner's requests, as the owner's file list pages them (newest first
 * by default, the same cursor and orders). Another user's request is a 404 like a missing one.
 */
export async function listReceived(ctx: AppContext, input: ListInput & { requestId: string }): Promise<FilePage> {
  await getOwnedRequest(ctx, { ownerId: input.ownerId, id: input.requestId })
  return listOwnedFiles(ctx, input)
}
