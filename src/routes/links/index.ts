import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import type { HeldKey } from '../../core/idempotency/keep'
import type { LinkRow } from '../../db/tables'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { toLinkInput } from '../../core/links/link-input'
import { idempotentWrites, NO_BODY, requestDigest } from '../../http/idempotency'
import { authFailures, FailureSchema, IdempotencyHeaders, keyedFailures } from '../../http/schemas'
import { FileIdParams, LinkDeletedEnvelope, LinkEnvelope, LinkIdParams, LinkJson, LinkListEnvelope, RoomIdParams } from './model'
import { createRoomLink, listRoomLinks } from '../../core/rooms/room-links'
import { linkFacts, toLinkDto } from '../../core/links/presenter'
import { createLink } from '../../core/links/create-link'
import { type DeletedLink, deleteLink } from '../../core/links/delete-link'
import { listLinks } from '../../core/links/list-links'
import { getLink } from '../../core/links/owned-links'
import { updateLink } from '../../core/links/update-link'

const tags = ['links']
/** What creating a link takes and answers, for a file's and a room's alike. */
const NEW_LINK = {
  auth: 'links:write' as const,
  parse: jsonBody(LinkJson, 'links:write'),
  body: LinkJson,
  headers: IdempotencyHeaders,
  response: {
    201: LinkEnvelope,
    400: FailureSchema,
    404: FailureSchema,
    413: FailureSchema,
    415: FailureSchema,
    ...keyedFailures,
    ...authFailures,
  },
}
const roomTags = ['rooms']

/** The owner's share links: /api/files/:id/links, /api/rooms/:id/links (docs/rooms.md) and /api/links/:linkId. Thin handlers around the services. */
export function linksRoutes(ctx: AppContext, auth: AuthGuard) {
  const publicUrl = ctx.config.publicUrl
  const dto = (row: Parameters<typeof toLinkDto>[0]) => toLinkDto(row, publicUrl, ctx.now())
  const keyed = idempotentWrites(ctx)
  const linkCreated = (row: Parameters<typeof toLinkDto>[0]) => ({
    status: 201,
    body: { success: true as const, data: dto(row) },
    headers: { location: `${publicUrl}/api/links/${row.id}` },
  })
  /** A new link of a file or a room, once per Idempotency-Key, audited: its 201 with the Location of the link. */
  const createOnce = (
    request: Request,
    set: Parameters<typeof keyed>[1],
    who: Parameters<typeof keyed>[2],
    body: Parameters<typeof requestDigest>[0],
    audit: (event: 'link.created', facts: ReturnType<typeof linkFacts>) => Promise<void>,
    create: (held: HeldKey<LinkRow> | undefined) => Promise<LinkRow>,
  ) =>
    keyed(request, set, who, (key) =>
      key.once(
        requestDigest(body),
        async (held) => {
          const row = await create(held)
          await audit('link.created', linkFacts(row))
          return row
        },
        linkCreated,
      ),
    )

  return new Elysia({ name: 'links' })
    .use(auth)
    .get(
      '/api/files/:id/links',
      async ({ caller, params }) => ({
        success: true as const,
        data: (await listLinks(ctx, { asker: { ownerId: caller.ownerId }, fileId: params.id })).map(dto),
      }),
      {
        auth: 'files:read',
        params: FileIdParams,
        response: { 200: LinkListEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: "List a file's share links, the default link first, then in creation order", tags },
      },
    )
    .post(
      '/api/files/:id/links',
      async ({ request, body, caller, params, set, audit }) =>
        createOnce(request, set, caller, body, audit, (held) =>
          createLink(ctx, { ownerId: caller.ownerId, fileId: params.id, link: toLinkInput(body), key: held }),
        ),
      {
        ...NEW_LINK,
        params: FileIdParams,
        detail: {
          summary: 'Add a share link to a file (at most 100 a file)',
          description:
            'Every field is optional: omitted ones take their defaults and the server policy (default expiry, required password).',
          tags,
        },
      },
    )
    .get(
      '/api/rooms/:id/links',
      async ({ caller, params }) => ({
        success: true as const,
        data: (await listRoomLinks(ctx, { ownerId: caller.ownerId, roomId: params.id })).map(dto),
      }),
      {
        auth: 'files:read',
        params: RoomIdParams,
        response: { 200: LinkListEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: "List a room's share links, the default link first, then in creation order", tags: roomTags },
      },
    )
    .post(
      '/api/rooms/:id/links',
      async ({ request, body, caller, params, set, audit }) =>
        createOnce(request, set, caller, body, audit, (held) =>
          createRoomLink(ctx, { ownerId: caller.ownerId, roomId: params.id, link: toLinkInput(body), key: held }),
        ),
      {
        ...NEW_LINK,
        params: RoomIdParams,
        detail: {
          summary: 'Add a share link to a room, with every control a file link has (at most 100 a room)',
          description: 'Changed and deleted through /api/links/:linkId like a file link.',
          tags: roomTags,
        },
      },
    )
    .get(
      '/api/links/:linkId',
      async ({ caller, params }) => ({
        success: true as const,
        data: dto(await getLink(ctx, { asker: { ownerId: caller.ownerId }, linkId: params.linkId })),
      }),
      {
        auth: 'files:read',
        params: LinkIdParams,
        response: { 200: LinkEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: 'Get a share link', tags },
      },
    )
    .patch(
      '/api/links/:linkId',
      async ({ body, caller, params, audit }) => {
        const row = await updateLink(ctx, { asker: { ownerId: caller.ownerId }, linkId: params.linkId, link: toLinkInput(body) })
        // The names of the fields sent, then the link as it is now (a new password shows only as hasPassword).
        await audit('link.changed', { ...linkFacts(row), changed: Object.keys(body).sort().join(',') })
        return { success: true as const, data: dto(row) }
      },
      {
        auth: 'links:write',
        parse: jsonBody(LinkJson, 'links:write'),
        body: LinkJson,
        params: LinkIdParams,
        response: { 200: LinkEnvelope, 400: FailureSchema, 404: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures },
        detail: {
          summary: 'Change a share link',
          description: 'Omitted fields stay unchanged; null clears password, expiresAt and maxViews, "" or null the label.',
          tags,
        },
      },
    )
    .delete(
      '/api/links/:linkId',
      async ({ request, caller, params, set, audit }) =>
        keyed(request, set, caller, (key) =>
          key.once(
            NO_BODY,
            async (held) => {
              const deleted = await deleteLink(ctx, { asker: { ownerId: caller.ownerId }, linkId: params.linkId, key: held })
              await audit('link.deleted', { linkId: deleted.id, fileId: deleted.fileId, roomId: deleted.roomId })
              return deleted
            },
            (deleted: DeletedLink) => ({ status: 200, body: { success: true as const, data: { id: deleted.id } } }),
          ),
        ),
      {
        auth: 'links:write',
        headers: IdempotencyHeaders,
        params: LinkIdParams,
        response: { 200: LinkDeletedEnvelope, 404: FailureSchema, ...keyedFailures, ...authFailures },
        detail: { summary: "Delete a share link (not a file's default link: 409)", tags },
      },
    )
}
