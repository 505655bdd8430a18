import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { fileTooLarge } from '../../errors'
import type { AuthGuard } from '../../http/auth-guard'
import { declaredLength, requireMediaType } from '../../http/request-body'
import { authFailures, FailureSchema, openApiSchema } from '../../http/schemas'
import { contentDisposition, etagOf, sendFile, takeSetHeaders } from '../../http/send-file'
import { assertDiskSpace } from '../../uploads/disk-space'
import { readJsonBody } from '../../http/read-json-body'
import { MAX_FORM_OVERHEAD_BYTES, receiveMultipart } from '../../uploads/receive-multipart'
import { createUploadGate } from '../../uploads/upload-gate'
import { metadataFromJson } from './input'
import { DeletedEnvelope, FileEnvelope, FileIdParams, FileListEnvelope, ListQuery, UpdateForm, UpdateJson, UploadForm } from './model'
import { toFileDto } from './presenter'
import { assertUploadMayStart } from '../../core/files/quota'
import { createFile } from './service/create-file'
import { deleteOwnedFile } from './service/delete-file'
import { getOwnedFile, ownedFileReader } from '../../core/files/get-owned-file'
import { listOwnedFiles } from './service/list-files'
import { updateFromMultipart, updateMetadata } from './service/update-file'

const tags = ['files']

/** The /api/files routes: thin handlers that check the request's shape and call a service. */
export function filesRoutes(ctx: AppContext, auth: AuthGuard) {
  const publicUrl = ctx.config.publicUrl
  const readOwnedFile = ownedFileReader(ctx)
  const uploads = createUploadGate({ total: ctx.config.maxUploads, perUser: ctx.config.maxUploadsPerUser })
  const envelope = (row: Parameters<typeof toFileDto>[0]) => ({ success: true as const, data: toFileDto(row, publicUrl) })

  // Refuses what cannot succeed before reading the body: an oversized declaration, a full quota.
  // `replacing` is the row a PUT would replace: it frees its size and adds no file to the count.
  const receive = async (request: Request, ownerId: string, replacing?: { size: number }) => {
    const declared = declaredLength(request)
    if (declared !== undefined && declared > ctx.config.maxFileSize + MAX_FORM_OVERHEAD_BYTES) {
      throw fileTooLarge(ctx.config.maxFileSize)
    }
    const leastPdfBytes = Math.max(0, (declared ?? 0) - MAX_FORM_OVERHEAD_BYTES)
    await assertUploadMayStart(ctx, ownerId, {
      files: replacing ? 0 : 1,
      bytes: leastPdfBytes - (replacing?.size ?? 0),
    })
    // Without a Content-Length the upload may be as large as the cap.
    await assertDiskSpace(ctx.layout.tmp, declared ?? ctx.config.maxFileSize, ctx.config.minFreeDisk)
    return receiveMultipart(request, {
      tempFiles: ctx.tempFiles,
      maxFileBytes: ctx.config.maxFileSize,
      fileField: 'file',
      pace: { now: ctx.now, minBytesPerSecond: ctx.config.uploadMinRate, timeoutMs: ctx.config.uploadTimeout * 1000 },
    })
  }

  return new Elysia({ prefix: '/api/files' })
    .use(auth)
    .post(
      '/upload',
      async ({ request, caller, set }) => {
        requireMediaType(request, ['multipart/form-data'])
        const row = await uploads.run(caller.userId, async () => createFile(ctx, { ownerId: caller.userId, body: await receive(request, caller.userId) }))
        set.status = 201
        return envelope(row)
      },
      {
        auth: true,
        parse: 'none',
        response: { 201: FileEnvelope, 400: FailureSchema, 403: FailureSchema, 408: FailureSchema, 413: FailureSchema, 415: FailureSchema, 503: FailureSchema, 507: FailureSchema, ...authFailures },
        detail: {
          summary: 'Upload a PDF',
          tags,
          requestBody: { required: true, content: { 'multipart/form-data': { schema: openApiSchema(UploadForm) } } },
        },
      },
    )
    .get(
      '',
      async ({ caller, query }) => {
        const page = await listOwnedFiles(ctx, { ownerId: caller.userId, limit: query.limit ?? 20, cursor: query.cursor, search: query.q, order: query.order })
        return { success: true as const, data: page.rows.map((row) => toFileDto(row, publicUrl)), nextCursor: page.nextCursor }
      },
      {
        auth: true,
        query: ListQuery,
        response: { 200: FileListEnvelope, 400: FailureSchema, ...authFailures },
        detail: { summary: "List the caller's files, newest (or oldest) first, optionally only those matching ?q=", tags },
      },
    )
    .get('/:id', async ({ caller, params }) => envelope(await readOwnedFile({ ownerId: caller.userId, id: params.id })), {
      auth: true,
      params: FileIdParams,
      response: { 200: FileEnvelope, 404: FailureSchema, ...authFailures },
      detail: { summary: 'Get a file', tags },
    })
    .put(
      '/:id',
      async ({ request, caller, params }) => {
        const target = { ownerId: caller.userId, id: params.id }
        const type = requireMediaType(request, ['application/json', 'multipart/form-data'])
        const current = await getOwnedFile(ctx, target) // 404 before reading a body that could never be stored
        if (type === 'application/json') {
          return envelope(await updateMetadata(ctx, { ...target, metadata: metadataFromJson(await readJsonBody(request)) }))
        }
        return envelope(await uploads.run(caller.userId, async () => updateFromMultipart(ctx, { ...target, body: await receive(request, caller.userId, current) })))
      },
      {
        auth: true,
        parse: 'none',
        params: FileIdParams,
        response: { 200: FileEnvelope, 400: FailureSchema, 403: FailureSchema, 404: FailureSchema, 408: FailureSchema, 413: FailureSchema, 415: FailureSchema, 503: FailureSchema, 507: FailureSchema, ...authFailures },
        detail: {
          summary: 'Update metadata, or replace the PDF together with metadata',
          description: 'Omitted fields stay unchanged; "" clears title and desc. All or nothing.',
          tags,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: openApiSchema(UpdateJson) }, 'multipart/form-data': { schema: openApiSchema(UpdateForm) } },
          },
        },
      },
    )
    .delete('/:id', async ({ caller, params }) => ({ success: true as const, data: await deleteOwnedFile(ctx, { ownerId: caller.userId, id: params.id }) }), {
      auth: true,
      params: FileIdParams,
      response: { 200: DeletedEnvelope, 404: FailureSchema, ...authFailures },
      detail: { summary: 'Delete a file, its PDF and its previews', tags },
    })
    .get(
      '/:id/content',
      async ({ request, caller, params, set }) => {
        const row = await getOwnedFile(ctx, { ownerId: caller.userId, id: params.id })
        return sendFile(request, (range) => ctx.blobs.body(row.blobKey, range), {
          size: row.size,
          etag: etagOf(row.sha256),
          disposition: contentDisposition(row.filename, 'attachment'),
          headers: { ...takeSetHeaders(set), 'cache-control': 'private, no-cache' },
        })
      },
      {
        auth: true,
        params: FileIdParams,
        detail: {
          summary: 'Download the PDF (owner); supports Range',
          tags,
          responses: {
            200: { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
            206: { description: 'A byte range of the PDF' },
            404: { description: 'Not found', content: { 'application/json': { schema: FailureSchema } } },
          },
        },
      },
    )
}
