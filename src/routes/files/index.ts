import { Elysia, type Static } from 'elysia'
import type { AppContext } from '../../core/context'
import type { PreviewService } from '../../core/previews/preview-service'
import type { FileWithLink } from '../../core/files/file-rows'
import { getOwnedFile, ownedFileReader } from '../../core/files/get-owned-file'
import { replacementPlan } from '../../core/files/versions'
import { apiActor } from '../../http/audit'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { type Answer, formDigest, idempotentWrites, NO_BODY, requestDigest } from '../../http/idempotency'
import { readJsonBody } from '../../http/read-json-body'
import { requireMediaType } from '../../http/request-body'
import { authFailures, FailureSchema, IdempotencyHeaders, keyedFailures, openApiSchema } from '../../http/schemas'
import { contentDisposition, etagOf, sendFile, takeSetHeaders } from '../../http/send-file'
import { uploadReceiver } from '../../core/uploads/receive-upload'
import { metadataFromForm, metadataFromJson, newFileFromForm } from './input'
import {
  DeletedEnvelope,
  FileEnvelope,
  FileIdParams,
  FileListEnvelope,
  ListQuery,
  MoveFileJson,
  UpdateForm,
  UpdateJson,
  UploadForm,
  VersionListEnvelope,
  VersionParams,
} from './model'
import { toFileDto, toVersionDto } from '../../core/files/presenter'
import { createFile } from '../../core/files/create-file'
import { type DeletedFile, deleteOwnedFile } from '../../core/files/delete-file'
import { deleteVersion } from '../../core/files/delete-version'
import { findOwnedVersion, type VersionBlob } from '../../core/files/find-version'
import { listVersions } from '../../core/files/list-versions'
import { restoreVersion } from '../../core/files/restore-version'
import { listOwnedFiles } from '../../core/files/list-files'
import { listReceived } from '../../core/requests/list-received'
import { replacePdf } from '../../core/files/replace-pdf'
import { updateMetadata } from '../../core/files/update-metadata'
import { moveFile } from '../../core/teams/move-file'

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
  ...keyedFailures,
  ...authFailures,
}

/** The /api/files routes: thin handlers that check the request's shape and call a service. */
export function filesRoutes(ctx: AppContext, auth: AuthGuard, previews: Pick<PreviewService, 'drawAhead'>) {
  const publicUrl = ctx.config.publicUrl
  const readOwnedFile = ownedFileReader(ctx)
  const receiveUpload = uploadReceiver(ctx)
  const keyed = idempotentWrites(ctx)
  const envelope = (row: Parameters<typeof toFileDto>[0]) => ({ success: true as const, data: toFileDto(row, publicUrl) })
  /** The answer of a write that gives the file: 200 and the File (kept as it is under an Idempotency-Key). */
  const fileAnswer = (row: FileWithLink) => ({ status: 200, body: envelope(row) })
  const done = <B>(body: B): Answer<B> => ({ status: 200, body })
  /** An upload's answer: 201, the File, and where it lives. */
  const fileCreated = (row: FileWithLink) => ({
    status: 201,
    body: envelope(row),
    headers: { location: `${publicUrl}/api/files/${row.id}` },
  })
  /** The owner's download of a stored PDF (the current one or a version): Range, attachment, revalidated before reuse. */
  const sendOwnerCopy = (request: Request, set: Parameters<typeof takeSetHeaders>[0], pdf: VersionBlob) =>
    sendFile(request, (range) => ctx.blobs.body(pdf.blobKey, range), {
      size: pdf.size,
      etag: etagOf(pdf.sha256),
      disposition: contentDisposition(pdf.filename, 'attachment'),
      headers: { ...takeSetHeaders(set), 'cache-control': 'private, no-cache' },
    })

  /** A page of the caller's files (GET /api/files, GET /api/requests/:id/files). */
  const filePage = (page: { rows: FileWithLink[]; nextCursor: string | null }) => ({
    success: true as const,
    data: page.rows.map((row) => toFileDto(row, publicUrl)),
    nextCursor: page.nextCursor,
  })
  const listInput = (ownerId: string, query: Static<typeof ListQuery>) => ({
    ownerId,
    limit: query.limit ?? 20,
    cursor: query.cursor,
    search: query.q,
    order: query.order,
  })

  /** A new PDF (uploaded, replacing, restored): its page 1 is drawn in the background for its first reader. */
  const drawnAhead = <T extends Parameters<typeof previews.drawAhead>[0]>(row: T) => {
    previews.drawAhead(row)
    return row
  }

  // What arrived through a file request is a list of files: the File resource, paged like the owner's list.
  const received = new Elysia({ name: 'request-files' })
    .use(auth)
    .get(
      '/api/requests/:id/files',
      async ({ caller, params, query }) => filePage(await listReceived(ctx, { ...listInput(caller.ownerId, query), requestId: params.id })),
      {
        auth: 'files:read',
        params: FileIdParams,
        query: ListQuery,
        response: { 200: FileListEnvelope, 400: FailureSchema, 404: FailureSchema, ...authFailures },
        detail: {
          summary: 'List the files that arrived through a file request, with their source; newest first like the files list',
          tags: ['requests'],
        },
      },
    )

  const files = new Elysia({ name: 'files', prefix: '/api/files' })
    .use(auth)
    .post(
      '/upload',
      async ({ request, caller, set, server }) => {
        requireMediaType(request, ['multipart/form-data'])
        return keyed(request, set, caller, async (key) => {
          const actor = apiActor(ctx, request, server, { userId: caller.userId, name: caller.userName })
          // `await using` would say this, but the import checker's parser (swc's visitor) cannot read it yet.
          const upload = await receiveUpload(request, { ownerId: caller.ownerId, replay: key.answered, actor })
          try {
            const input = newFileFromForm(upload)
            return await key.once(
              formDigest(upload),
              (held) => createFile(ctx, { upload, ...input, key: held }).then(drawnAhead),
              fileCreated,
            )
          } finally {
            await upload[Symbol.asyncDispose]()
          }
        })
      },
      {
        auth: 'files:write',
        parse: 'none',
        headers: IdempotencyHeaders,
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
    .get('', async ({ caller, query }) => filePage(await listOwnedFiles(ctx, listInput(caller.ownerId, query))), {
      auth: 'files:read',
      query: ListQuery,
      response: { 200: FileListEnvelope, 400: FailureSchema, ...authFailures },
      detail: { summary: "List the caller's files, newest (or oldest) first, optionally only those matching ?q=", tags },
    })
    .get('/:id', async ({ caller, params }) => envelope(await readOwnedFile({ ownerId: caller.ownerId, id: params.id })), {
      auth: 'files:read',
      params: FileIdParams,
      response: { 200: FileEnvelope, 404: FailureSchema, ...authFailures },
      detail: { summary: 'Get a file', tags },
    })
    .put(
      '/:id',
      async ({ request, caller, params, set, server }) => {
        const target = { ownerId: caller.ownerId, id: params.id }
        const type = requireMediaType(request, ['application/json', 'multipart/form-data'])
        return keyed(request, set, caller, async (key) => {
          // 404 before reading a body that could never be stored; a replay's answer is kept already, it needs no file.
          const current = key.answered ? undefined : await getOwnedFile(ctx, target)
          if (type === 'application/json') {
            const body = await readJsonBody(request)
            const metadata = metadataFromJson(body)
            return key.once(
              requestDigest(body),
              (held) => updateMetadata(ctx, { ...target, metadata, seen: current, key: held }),
              fileAnswer,
            )
          }
          const seen = current && { current, plan: await replacementPlan(ctx, current) }
          const actor = apiActor(ctx, request, server, { userId: caller.userId, name: caller.userName })
          const upload = await receiveUpload(request, { ownerId: caller.ownerId, replacing: seen?.plan, replay: key.answered, actor })
          try {
            const metadata = metadataFromForm(upload.fields)
            return await key.once(
              formDigest(upload),
              (held) =>
                upload.file
                  ? replacePdf(ctx, { id: params.id, upload, metadata, seen, key: held }).then(drawnAhead)
                  : updateMetadata(ctx, { ...target, metadata, seen: current, key: held }),
              fileAnswer,
            )
          } finally {
            await upload[Symbol.asyncDispose]()
          }
        })
      },
      {
        auth: 'files:write',
        parse: 'none',
        headers: IdempotencyHeaders,
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
      async ({ request, caller, params, set, audit }) =>
        keyed(request, set, caller, (key) =>
          key.once(
            NO_BODY,
            async (held) => {
              const deleted = await deleteOwnedFile(ctx, { ownerId: caller.ownerId, id: params.id, key: held })
              await audit('file.deleted', { fileId: deleted.id, filename: deleted.filename })
              return deleted
            },
            (deleted: DeletedFile) => done({ success: true as const, data: { id: deleted.id } }),
          ),
        ),
      {
        auth: 'files:write',
        headers: IdempotencyHeaders,
        params: FileIdParams,
        response: { 200: DeletedEnvelope, 404: FailureSchema, ...keyedFailures, ...authFailures },
        detail: { summary: 'Delete a file, its PDF and its previews', tags },
      },
    )
    .post(
      '/:id/move',
      async ({ body, caller, params, audit }) => {
        const moved = await moveFile(ctx, { mover: caller, fileId: params.id, teamId: body.team })
        await audit('file.moved', { fileId: params.id, from: caller.ownerId, to: moved.ownerId, ...(body.team && { teamId: body.team }) })
        return envelope(await getOwnedFile(ctx, { ownerId: moved.ownerId, id: params.id }))
      },
      {
        auth: 'files:write',
        parse: jsonBody(MoveFileJson, 'files:write'),
        body: MoveFileJson,
        params: FileIdParams,
        response: {
          200: FileEnvelope,
          400: FailureSchema,
          403: FailureSchema,
          404: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          ...authFailures,
        },
        detail: {
          summary: 'Move a file into a team, or back to your own files (docs/teams.md)',
          description:
            'Only its owner changes: the file keeps its id, versions, links and views, and leaves the rooms of its old owner. Into a team: you are its owner or editor; out of a team: a team token of an owner.',
          tags: [...tags, 'teams'],
        },
      },
    )
    .get(
      '/:id/content',
      async ({ request, caller, params, set }) =>
        sendOwnerCopy(request, set, await getOwnedFile(ctx, { ownerId: caller.ownerId, id: params.id })),
      {
        auth: 'files:read',
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
    .get(
      '/:id/versions',
      async ({ caller, params }) => ({
        success: true as const,
        data: (await listVersions(ctx, { ownerId: caller.ownerId, id: params.id })).map(toVersionDto),
      }),
      {
        auth: 'files:read',
        params: FileIdParams,
        response: { 200: VersionListEnvelope, 404: FailureSchema, ...authFailures },
        detail: {
          summary: "List a file's versions: the current PDF first, then the previous ones, newest first",
          description: 'A replacement keeps the previous PDF as a version, at most PDFSHARE_MAX_VERSIONS (5 by default) a file.',
          tags,
        },
      },
    )
    .get(
      '/:id/versions/:versionId/content',
      async ({ request, caller, params, set }) =>
        sendOwnerCopy(request, set, await findOwnedVersion(ctx, { ownerId: caller.ownerId, id: params.id, versionId: params.versionId })),
      {
        auth: 'files:read',
        params: VersionParams,
        detail: {
          summary: 'Download one version of the PDF (owner), as its own filename; supports Range',
          tags,
          responses: {
            200: { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
            206: { description: 'A byte range of the PDF' },
            404: { description: 'Not found', content: { 'application/json': { schema: FailureSchema } } },
          },
        },
      },
    )
    .post(
      '/:id/versions/:versionId/restore',
      async ({ request, caller, params, set }) =>
        keyed(request, set, caller, (key) =>
          key.once(
            NO_BODY,
            (held) =>
              restoreVersion(ctx, { ownerId: caller.ownerId, id: params.id, versionId: params.versionId, key: held }).then(drawnAhead),
            fileAnswer,
          ),
        ),
      {
        auth: 'files:write',
        headers: IdempotencyHeaders,
        params: VersionParams,
        response: { 200: FileEnvelope, 404: FailureSchema, ...keyedFailures, ...authFailures },
        detail: {
          summary: 'Make a previous version the current PDF again',
          description:
            "The current PDF becomes the newest previous version. The file keeps its id and links; its bytes, size, sha256 and filename become the version's.",
          tags,
        },
      },
    )
    .delete(
      '/:id/versions/:versionId',
      async ({ request, caller, params, set }) =>
        keyed(request, set, caller, (key) =>
          key.once(
            NO_BODY,
            (held) => deleteVersion(ctx, { ownerId: caller.ownerId, id: params.id, versionId: params.versionId, key: held }),
            (deleted: { id: string }) => done({ success: true as const, data: deleted }),
          ),
        ),
      {
        auth: 'files:write',
        headers: IdempotencyHeaders,
        params: VersionParams,
        response: { 200: DeletedEnvelope, 404: FailureSchema, ...keyedFailures, ...authFailures },
        detail: { summary: 'Delete a previous version and its PDF (not the current one: 409)', tags },
      },
    )
  return new Elysia({ name: 'files-area' }).use(received).use(files)
}
