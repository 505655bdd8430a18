import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import type { AuthGuard } from '../../http/auth-guard'
import { readJsonBody } from '../../http/read-json-body'
import { requireMediaType } from '../../http/request-body'
import { authFailures, FailureSchema, openApiSchema } from '../../http/schemas'
import { linkFromJson } from './input'
import { FileIdParams, LinkDeletedEnvelope, LinkEnvelope, LinkIdParams, LinkJson, LinkListEnvelope } from './model'
import { toLinkDto } from './presenter'
import { createLink } from './service/create-link'
import { deleteLink } from './service/delete-link'
import { listLinks } from './service/list-links'
import { getLink } from './service/owned-links'
import { updateLink } from './service/update-link'

const tags = ['links']

const jsonBody = (description: string) => ({
  required: true,
  description,
  content: { 'application/json': { schema: openApiSchema(LinkJson) } },
})

/** The owner's share links: /api/files/:id/links and /api/links/:linkId. Thin handlers around the services. */
export function linksRoutes(ctx: AppContext, auth: AuthGuard) {
  const publicUrl = ctx.config.publicUrl
  const dto = (row: Parameters<typeof toLinkDto>[0]) => toLinkDto(row, publicUrl, ctx.now())
  const readLink = async (request: Request) => {
    requireMediaType(request, ['application/json'])
    return linkFromJson(await readJsonBody(request))
  }

  return new Elysia({ name: 'links' })
    .use(auth)
    .get(
      '/api/files/:id/links',
      async ({ caller, params }) => ({
        success: true as const,
        data: (await listLinks(ctx, { asker: { ownerId: caller.userId }, fileId: params.id })).map(dto),
      }),
      {
        auth: true,
        params: FileIdParams,
        response: { 200: LinkListEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: "List a file's share links, the default link first, then in creation order", tags },
      },
    )
    .post(
      '/api/files/:id/links',
      async ({ request, caller, params, set }) => {
        const link = await readLink(request)
        const row = await createLink(ctx, { ownerId: caller.userId, fileId: params.id, link })
        set.status = 201
        return { success: true as const, data: dto(row) }
      },
      {
        auth: true,
        parse: 'none',
        params: FileIdParams,
        response: { 201: LinkEnvelope, 400: FailureSchema, 404: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures },
        detail: {
          summary: 'Add a share link to a file (at most 100 a file)',
          description: 'Omitted fields take their defaults and the server policy (default expiry, required password).',
          tags,
          requestBody: jsonBody('The new link; every field optional'),
        },
      },
    )
    .get(
      '/api/links/:linkId',
      async ({ caller, params }) => ({
        success: true as const,
        data: dto(await getLink(ctx, { asker: { ownerId: caller.userId }, linkId: params.linkId })),
      }),
      {
        auth: true,
        params: LinkIdParams,
        response: { 200: LinkEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: 'Get a share link', tags },
      },
    )
    .patch(
      '/api/links/:linkId',
      async ({ request, caller, params }) => {
        const link = await readLink(request)
        return {
          success: true as const,
          data: dto(await updateLink(ctx, { asker: { ownerId: caller.userId }, linkId: params.linkId, link })),
        }
      },
      {
        auth: true,
        parse: 'none',
        params: LinkIdParams,
        response: { 200: LinkEnvelope, 400: FailureSchema, 404: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures },
        detail: {
          summary: 'Change a share link',
          description: 'Omitted fields stay unchanged; null clears password, expiresAt and maxViews, "" or null the label.',
          tags,
          requestBody: jsonBody('The fields to change'),
        },
      },
    )
    .delete(
      '/api/links/:linkId',
      async ({ caller, params }) => ({
        success: true as const,
        data: await deleteLink(ctx, { asker: { ownerId: caller.userId }, linkId: params.linkId }),
      }),
      {
        auth: true,
        params: LinkIdParams,
        response: { 200: LinkDeletedEnvelope, 404: FailureSchema, 409: FailureSchema, ...authFailures },
        detail: { summary: "Delete a share link (not a file's default link: 409)", tags },
      },
    )
}
