import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import type { PreviewService } from '../../core/previews/preview-service'
import { getOwnedFile, ownedFileReader } from '../../core/files/get-owned-file'
import { replacementPlan } from '../../core/files/versions'
import type { AuthGuard } from '../../http/auth-guard'
import { readJsonBody } from '../../http/read-json-body'
import { requireMediaType } from '../../http/request-body'
import { authFailures, FailureSchema, openApiSchema } from '../../http/schemas'
import { contentDisposition, etagOf, sendFile, takeSetHeaders } from '../../http/send-file'
import { uploadReceiver } from '../../uploads/receive-upload'
import { metadataFromForm, metadataFromJson, newFileFromForm } from './input'
import {
  DeletedEnvelope,
  FileEnvelope,
  FileIdParams,
  FileListEnvelope,
  ListQuery,
  UpdateForm,
  UpdateJson,
  UploadForm,
  VersionListEnvelope,
  VersionParams,
} from './model'
import { toFileDto, toVersionDto } from './presenter'
import { createFile } from './service/create-file'
import { deleteOwnedFile } from './service/delete-file'
import { deleteVersion } from './service/delete-version'
import { findOwnedVersion, type VersionBlob } from './service/find-version'
import { listVersions } from './service/list-versions'
import { restoreVersion } from './service/restore-version'
import { listOwnedFiles } from './service/list-files'
import { replacePdf } from './service/replace-pdf'
import { updateMetadata } from './service/update-metadata'

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
export function filesRoutes(ctx: AppContext, auth: AuthGuard, previews: Pick<PreviewService, 'drawAhead'>) {
  const publicUrl = ctx.config.publicUrl
  const readOwnedFile = ownedFileReader(ctx)
  const receiveUpload = uploadReceiver(ctx)
  const envelope = (row: Parameters<typeof toFileDto>[0]) => ({ success: true as const, data: toFileDto(row, publicUrl) })
  /** The owner's download of a stored PDF (the current one or a version): Range, attachment, revalidated before reuse. */
  const sendOwnerCopy = (request: Request, set: Parameters<typeof takeSetHeaders>[0], pdf: VersionBlob) =>
    sendFile(request, (range) => ctx.blobs.body(pdf.blobKey, range), {
      size: pdf.size,
      etag: etagOf(pdf.sha256),
      disposition: contentDisposition(pdf.filename, 'attachment'),
      headers: { ...takeSetHeaders(set), 'cache-control': 'private, no-cache' },
    })

  return new Elysia({ name: 'files', prefix: '/api/files' })
    .use(auth)
    .post(
      '/upload',
      async ({ request, caller, set }) => {
        requireMediaType(request, ['multipart/form-data'])
        // `await using` would say this, but the import checker's parser (swc's visitor) cannot read it yet.
        const upload = await receiveUpload(request, { ownerId: caller.userId })
        try {
          const row = await createFile(ctx, { upload, ...newFileFromForm(upload) })
          previews.drawAhead(row)
          set.status = 201
          return envelope(row)
        } finally {
          await upload[Symbol.asyncDispose]()
        }
      },
      {
        auth: 'files:write',
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
        auth: 'files:read',
        query: ListQuery,
        response: { 200: FileListEnvelope, 400: FailureSchema, ...authFailures },
        detail: { summary: "List the caller's files, newest (or oldest) first, optionally only those matching ?q=", tags },
      },
    )
    .get('/:id', async ({ caller, params }) => envelope(await readOwnedFile({ ownerId: caller.userId, id: params.id })), {
      auth: 'files:read',
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
        const plan = await replacementPlan(ctx, current)
        const upload = await receiveUpload(request, { ownerId: caller.userId, replacing: plan })
        try {
          if (!upload.file) return envelope(await updateMetadata(ctx, { ...target, metadata: metadataFromForm(upload.fields) }))
          const metadata = metadataFromForm(upload.fields)
          const replaced = await replacePdf(ctx, { id: params.id, upload, metadata, seen: { current, plan } })
          previews.drawAhead(replaced)
          return envelope(replaced)
        } finally {
          await upload[Symbol.asyncDispose]()
        }
      },
      {
        auth: 'files:write',
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
      async ({ caller, params, audit }) => {
        const deleted = await deleteOwnedFile(ctx, { ownerId: caller.userId, id: params.id })
        await audit('file.deleted', { fileId: deleted.id, filename: deleted.filename })
        return { success: true as const, data: { id: deleted.id } }
      },
      {
        auth: 'files:write',
        params: FileIdParams,
        response: { 200: DeletedEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: 'Delete a file, its PDF and its previews', tags },
      },
    )
    .get(
      '/:id/content',
      async ({ request, caller, params, set }) =>
        sendOwnerCopy(request, set, await getOwnedFile(ctx, { ownerId: caller.userId, id: params.id })),
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
        data: (await listVersions(ctx, { ownerId: caller.userId, id: params.id })).map(toVersionDto),
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
        sendOwnerCopy(request, set, await findOwnedVersion(ctx, { ownerId: caller.userId, id: params.id, versionId: params.versionId })),
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
      async ({ caller, params }) => {
        const restored = await restoreVersion(ctx, { ownerId: caller.userId, id: params.id, versionId: params.versionId })
        previews.drawAhead(restored)
        return envelope(restored)
      },
      {
        auth: 'files:write',
        params: VersionParams,
        response: { 200: FileEnvelope, 404: FailureSchema, 409: FailureSchema, ...authFailures },
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
      async ({ caller, params }) => ({
        success: true as const,
        data: await deleteVersion(ctx, { ownerId: caller.userId, id: params.id, versionId: params.versionId }),
      }),
      {
        auth: 'files:write',
        params: VersionParams,
        response: { 200: DeletedEnvelope, 404: FailureSchema, 409: FailureSchema, ...authFailures },
        detail: { summary: 'Delete a previous version and its PDF (not the current one: 409)', tags },
      },
    )
}
