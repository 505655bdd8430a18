import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { getOwnedFile, ownedFileReader } from '../../core/files/get-owned-file'
import { replacementPlan } from '../../core/files/versions'
import type { AuthGuard } from '../../http/auth-guard'
import { readJsonBody } from '../../http/read-json-body'
import { requireMediaType } from '../../http/request-body'
import { authFailures, FailureSchema, openApiSchema } from '../../http/schemas'
import { contentDisposition, etagOf, sendFile, takeSetHeaders } from '../../http/send-file'
import { uploadReceiver } from '../../uploads/receive-upload'
import { metadataFromJson } from './input'
import { DeletedEnvelope, FileEnvelope, FileIdParams, FileListEnvelope, ListQuery, UpdateForm, UpdateJson, UploadForm } from './model'
import { toFileDto } from './presenter'
import { createFile } from './service/create-file'
import { deleteOwnedFile } from './service/delete-file'
import { listOwnedFiles } from './service/list-files'
import { updateFromMultipart, updateMetadata } from './service/update-file'

const tags = ['files']

/** What a request that carries a PDF can be refused with (documented for upload and replace alike). */
const uploadFailures = {
  400: FailureSchema,
  403: FailureSchema,
  408: FailureSchema,
  413: FailureSchema,
  415: FailureSchema,
  503: FailureSchema,
  507: FailureSchema,
  ...authFailures,
}

/** The /api/files routes: thin handlers that check the request's shape and call a service. */
export function filesRoutes(ctx: AppContext, auth: AuthGuard) {
  const publicUrl = ctx.config.publicUrl
  const readOwnedFile = ownedFileReader(ctx)
  const receiveUpload = uploadReceiver(ctx)
  const envelope = (row: Parameters<typeof toFileDto>[0]) => ({ success: true as const, data: toFileDto(row, publicUrl) })

  return new Elysia({ prefix: '/api/files' })
    .use(auth)
    .post(
      '/upload',
      async ({ request, caller, set }) => {
        requireMediaType(request, ['multipart/form-data'])
        const row = await receiveUpload(request, { ownerId: caller.userId }, (body) => createFile(ctx, { ownerId: caller.userId, body }))
        set.status = 201
        return envelope(row)
      },
      {
        auth: true,
        parse: 'none',
        response: {
          201: FileEnvelope,
          ...uploadFailures,
        },
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
        const page = await listOwnedFiles(ctx, {
          ownerId: caller.userId,
          limit: query.limit ?? 20,
          cursor: query.cursor,
          search: query.q,
          order: query.order,
        })
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
        return envelope(
          await receiveUpload(request, { ownerId: caller.userId, replacing: await replacementPlan(ctx, current) }, (body) =>
            updateFromMultipart(ctx, { ...target, body }),
          ),
        )
      },
      {
        auth: true,
        parse: 'none',
        params: FileIdParams,
        response: {
          200: FileEnvelope,
          404: FailureSchema,
          ...uploadFailures,
        },
        detail: {
          summary: 'Update metadata, or replace the PDF together with metadata',
          description: 'Omitted fields stay unchanged; "" clears title and desc. All or nothing.',
          tags,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: openApiSchema(UpdateJson) },
              'multipart/form-data': { schema: openApiSchema(UpdateForm) },
            },
          },
        },
      },
    )
    .delete(
      '/:id',
      async ({ caller, params }) => ({
        success: true as const,
        data: await deleteOwnedFile(ctx, { ownerId: caller.userId, id: params.id }),
      }),
      {
        auth: true,
        params: FileIdParams,
        response: { 200: DeletedEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: 'Delete a file, its PDF and its previews', tags },
      },
    )
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
