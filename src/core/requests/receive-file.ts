import { sql } from 'drizzle-orm'
import type { AppContext } from '../context'
import { commitNewFile, newFileRow } from '../files/create-file'
import { ROOM_LIMITS } from '../../shared/room-shapes'
import type { FileWithLink } from '../files/file-rows'
import { toFileDto } from '../files/presenter'
import { type HeldKey, keptIn } from '../idempotency/keep'
import { metadataText } from '../files/rules'
import { prepareNewLink } from '../links/new-link'
import { readerEventStatements } from '../notifications/reader-events'
import type { Upload } from '../uploads/receive-upload'
import type { RequestRow } from '../../db/tables'
import { badRequest, requestClosed, requestOwnerFull } from '../../errors'
import { requestState } from './request-state'

/** What a sender gave beside the PDF, checked (routes/sender/input.ts): a name, an address (when asked for), a note. */
export type SenderFields = { name: string; email: string | null; note: string }

/** What a sender's receipt is made of: the stored file's name, size and SHA-256. */
export type ReceivedFile = Pick<FileWithLink, 'filename' | 'size' | 'sha256'>

/**
 * Stores a PDF a sender sent through a file request as an ordinary file of the request's owner, counted in their
 * quota, its `source` the request and what the sender gave, its default link created DISABLED (nothing a
 * stranger sent is public until the owner shares it). The committing INSERT holds the request's own conditions
 * beside the owner's quota (not turned off, not expired, fewer than `maxFiles` received) and the `received`
 * counter goes up in the same transaction: two uploads racing for the last place can never both go in (one
 * transaction at a time on SQLite; SERIALIZABLE, retried whole, on PostgreSQL). A refusal stores nothing: a
 * closed request is a 410, a full quota a 507 that tells the sender nothing of the owner's usage. Under an
 * Idempotency-Key (`key`), the same transaction keeps the sender's receipt, only if the file went in.
 */
export async function receiveRequestFile(
  ctx: AppContext,
  input: { request: RequestRow; upload: Upload; sender: SenderFields; key?: HeldKey<ReceivedFile> },
): Promise<FileWithLink> {
  const { request, upload, sender } = input
  const file = upload.file
  if (!file) throw badRequest('The request has no file part; send the PDF as a part named "file"')
  const filename = metadataText('filename', file.clientFilename, 'the file name')
  if (!filename.ok) throw badRequest(filename.problem)
  // The owner's link policy (a password on every link) applies when they share the file, turning its link on;
  // a disabled link shows nothing to anyone, so it is made without one.
  const policyFree = { ...ctx, config: { ...ctx.config, linkRequirePassword: false } }
  const link = await prepareNewLink(policyFree, { disabled: true }, { isDefault: true })
  const row = newFileRow(request.ownerId, link, {
    filename: filename.value,
    title: '',
    description: '',
    size: file.size,
    sha256: file.sha256,
    sourceRequestId: request.id,
    sourceName: sender.name === '' ? null : sender.name,
    sourceEmail: sender.email,
    sourceNote: sender.note === '' ? null : sender.note,
  })
  const { requests, rooms, roomItems } = ctx.db.tables
  const now = link.createdAt
  const seq = await commitNewFile(ctx, {
    row,
    link,
    path: file.temp.path,
    onlyIf: sql`EXISTS (SELECT 1 FROM ${requests} WHERE ${requests.id} = ${request.id} AND NOT ${requests.disabled}
      AND (${requests.expiresAt} IS NULL OR ${requests.expiresAt} > ${now}) AND ${requests.received} < ${requests.maxFiles})`,
    event: {
      event: 'file.received',
      data: { file: toFileDto(row, ctx.config.publicUrl), request: { id: request.id, title: request.title } },
    },
    alongside: (fileWentIn) => [
      ...keptIn(ctx, input.key, row, fileWentIn),
      ctx.db.orm.run(sql`UPDATE ${requests} SET received = received + 1 WHERE ${requests.id} = ${request.id} AND ${fileWentIn}`),
      // Into the request's room, last, at its top folder: only if the file went in, the room is still the owner's
      // (the request's room_id is read now: a room chosen or deleted meanwhile counts) and not full.
      ctx.db.orm.run(sql`INSERT INTO ${roomItems} (room_id, file_id, folder, position)
        SELECT r.room_id, ${row.id}, '', coalesce((SELECT max(position) FROM ${roomItems} WHERE room_id = r.room_id), -1) + 1
        FROM ${requests} r JOIN ${rooms} ON ${rooms.id} = r.room_id AND ${rooms.ownerId} = ${request.ownerId}
        WHERE r.id = ${request.id} AND ${fileWentIn}
          AND (SELECT count(*) FROM ${roomItems} WHERE room_id = r.room_id) < ${ROOM_LIMITS.items}`),
      // The owner's notifications (core/notifications), routed by the request's notify: news only if it went in.
      ...(request.notify === 'off'
        ? []
        : [
            ctx.db.orm.run(
              readerEventStatements.received(
                ctx.db.tables,
                { ownerId: request.ownerId, linkId: link.id, at: now, sender: row.sourceEmail ?? row.sourceName, requestId: request.id },
                fileWentIn,
              ),
            ),
          ]),
    ],
  })
  if (seq === undefined) throw await refusal(ctx, request.id, now)
  ctx.metrics.uploadStored('new', row.size)
  return { ...row, seq }
}

/** Why the committing INSERT stored nothing: the request as it is now closed, or else the owner's quota. */
async function refusal(ctx: AppContext, requestId: string, now: number): Promise<Error> {
  const { requests } = ctx.db.tables
  const [row] = await ctx.db.orm.select().from(requests).where(sql`${requests.id} = ${requestId}`)
  if (!row) return requestClosed('disabled') // deleted meanwhile: closed for good
  const state = requestState(row, now)
  return state === 'active' ? requestOwnerFull() : requestClosed(state)
}
