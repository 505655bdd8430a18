import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { createRequest } from '../../core/requests/create-request'
import { type DeletedRequest, deleteRequest } from '../../core/requests/delete-request'
import { listRequests } from '../../core/requests/list-requests'
import { getOwnedRequest } from '../../core/requests/owned-requests'
import { requestFacts, toRequestDto } from '../../core/requests/presenter'
import { toRequestInput } from '../../core/requests/request-input'
import { updateRequest } from '../../core/requests/update-request'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { idempotentWrites, NO_BODY, requestDigest } from '../../http/idempotency'
import { authFailures, FailureSchema, IdempotencyHeaders, keyedFailures } from '../../http/schemas'
import { NewRequestJson, RequestDeletedEnvelope, RequestEnvelope, RequestIdParams, RequestJson, RequestListEnvelope } from './model'

const tags = ['requests']

/**
 * The owner's file requests, /api/requests (docs/requests.md): thin handlers around core/requests. What arrived
 * through one is listed by the files routes (GET /api/requests/:id/files), with the File resource.
 */
export function requestsRoutes(ctx: AppContext, auth: AuthGuard) {
  const publicUrl = ctx.config.publicUrl
  const dto = (row: Parameters<typeof toRequestDto>[0]) => toRequestDto(row, publicUrl, ctx.now())
  const keyed = idempotentWrites(ctx)
  const created = (row: Parameters<typeof toRequestDto>[0]) => ({
    status: 201,
    body: { success: true as const, data: dto(row) },
    headers: { location: `${publicUrl}/api/requests/${row.id}` },
  })
  const bodyFailures = { 400: FailureSchema, 413: FailureSchema, 415: FailureSchema }

  return new Elysia({ name: 'requests', prefix: '/api/requests' })
    .use(auth)
    .post(
      '',
      async ({ request, body, caller, set, audit }) =>
        keyed(request, set, caller, (key) =>
          key.once(
            requestDigest(body),
            async (held) => {
              const input = toRequestInput(body)
              const row = await createRequest(ctx, { ownerId: caller.ownerId, request: { ...input, title: input.title! }, key: held })
              await audit('request.created', requestFacts(row))
              return row
            },
            created,
          ),
        ),
      {
        auth: 'requests:write',
        parse: jsonBody(NewRequestJson, 'requests:write'),
        body: NewRequestJson,
        headers: IdempotencyHeaders,
        response: { 201: RequestEnvelope, ...bodyFailures, 403: FailureSchema, 404: FailureSchema, ...keyedFailures, ...authFailures },
        detail: {
          summary: 'Create a file request: a page where others send you PDFs',
          description: 'Only the title is needed: at most 10 files by default, the server’s size cap, anyone holding the link may send.',
          tags,
        },
      },
    )
    .get('', async ({ caller }) => ({ success: true as const, data: (await listRequests(ctx, { ownerId: caller.ownerId })).map(dto) }), {
      auth: 'files:read',
      response: { 200: RequestListEnvelope, ...authFailures },
      detail: { summary: 'List your file requests, newest first', tags },
    })
    .get(
      '/:id',
      async ({ caller, params }) => ({
        success: true as const,
        data: dto(await getOwnedRequest(ctx, { ownerId: caller.ownerId, id: params.id })),
      }),
      {
        auth: 'files:read',
        params: RequestIdParams,
        response: { 200: RequestEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: 'Get a file request', tags },
      },
    )
    .patch(
      '/:id',
      async ({ body, caller, params, audit }) => {
        const row = await updateRequest(ctx, { ownerId: caller.ownerId, id: params.id, request: toRequestInput(body) })
        await audit('request.changed', { ...requestFacts(row), changed: Object.keys(body).sort().join(',') })
        return { success: true as const, data: dto(row) }
      },
      {
        auth: 'requests:write',
        parse: jsonBody(RequestJson, 'requests:write'),
        body: RequestJson,
        params: RequestIdParams,
        response: { 200: RequestEnvelope, ...bodyFailures, 404: FailureSchema, ...authFailures },
        detail: {
          summary: 'Change a file request',
          description: 'Omitted fields stay unchanged; null clears message, ownerName, expiresAt and password.',
          tags,
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
              const deleted = await deleteRequest(ctx, { ownerId: caller.ownerId, id: params.id, key: held })
              await audit('request.deleted', { requestId: deleted.id, title: deleted.title })
              return deleted
            },
            (deleted: DeletedRequest) => ({ status: 200, body: { success: true as const, data: { id: deleted.id } } }),
          ),
        ),
      {
        auth: 'requests:write',
        headers: IdempotencyHeaders,
        params: RequestIdParams,
        response: { 200: RequestDeletedEnvelope, 404: FailureSchema, ...keyedFailures, ...authFailures },
        detail: { summary: 'Delete a file request (the files that arrived through it stay yours)', tags },
      },
    )
}
