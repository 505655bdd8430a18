import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import { AcceptancesEnvelope, EraseJson, ErasedEnvelope, FileIdParams, LinkIdParams } from './model'
import { toAcceptanceDto, toAgreementTextDto } from '../../core/readers/presenter'
import { listAcceptances } from '../../core/readers/acceptances'
import { eraseReader } from '../../core/readers/erase-reader'

const tags = ['readers']

/**
 * What the owner's gated links keep of their readers, besides the visits (routes/analytics): the acceptances
 * of their agreements, and the erasure of one reader's address from all of it (and from the notifications, the
 * outbox and the page cache).
 */
export function readersRoutes(ctx: AppContext, auth: AuthGuard) {
  const acceptancesOf = async (scope: Parameters<typeof listAcceptances>[1]) => {
    const { rows, texts } = await listAcceptances(ctx, scope)
    return { success: true as const, data: { acceptances: rows.map(toAcceptanceDto), texts: texts.map(toAgreementTextDto) } }
  }
  const listed = { 200: AcceptancesEnvelope, 404: FailureSchema, ...authFailures }
  return new Elysia({ name: 'readers' })
    .use(auth)
    .get('/api/files/:id/acceptances', ({ caller, params }) => acceptancesOf({ ownerId: caller.ownerId, fileId: params.id }), {
      auth: 'analytics:read',
      params: FileIdParams,
      response: listed,
      detail: { summary: "Acceptances of the agreements of a file's links, newest first, with the texts accepted", tags },
    })
    .get('/api/links/:linkId/acceptances', ({ caller, params }) => acceptancesOf({ ownerId: caller.ownerId, linkId: params.linkId }), {
      auth: 'analytics:read',
      params: LinkIdParams,
      response: listed,
      detail: { summary: "Acceptances of a share link's agreement, newest first, with the texts accepted", tags },
    })
    .post(
      '/api/readers/erase',
      async ({ body, caller, audit }) => {
        const erased = await eraseReader(ctx, { ownerId: caller.ownerId, address: body.address })
        // The audit entry keeps the counts, never the address: it is what was erased.
        await audit('reader.erased', erased)
        return { success: true as const, data: erased }
      },
      {
        auth: 'files:write',
        parse: jsonBody(EraseJson, 'files:write'),
        body: EraseJson,
        response: { 200: ErasedEnvelope, 400: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures },
        detail: {
          summary: "Erase a reader's address from everything of your files",
          description:
            'From the visits and acceptances (which stay, without it), the reader events and notification messages, the codes and code mails, ' +
            "and the watermarked copies in this server's page cache; every spelling of the mailbox (ada+cv@ with ada@). Answers how many named it.",
          tags,
        },
      },
    )
}
