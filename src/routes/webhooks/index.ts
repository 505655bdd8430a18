import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { idempotentWrites, NO_BODY, requestDigest } from '../../http/idempotency'
import { authFailures, FailureSchema, IdempotencyHeaders, keyedFailures } from '../../http/schemas'
import { webhookFromJson } from './input'
import {
  DeliveriesQuery,
  DeliveryEnvelope,
  DeliveryListEnvelope,
  NewWebhookEnvelope,
  WebhookDeletedEnvelope,
  WebhookIdParams,
  WebhookJson,
  WebhookListEnvelope,
} from './model'
import { WEBHOOK_LIMITS } from '../../shared/webhook-shapes'
import { toDeliveryDto, toWebhookDto, webhookFacts } from '../../core/webhooks/presenter'
import { createWebhook } from '../../core/webhooks/create-webhook'
import { listDeliveries } from '../../core/webhooks/list-deliveries'
import { type DeletedWebhook, deleteWebhook, listWebhooks } from '../../core/webhooks/owned-webhooks'
import { testEventSender } from '../../core/webhooks/send-test-event'

const tags = ['webhooks']

/** The caller's webhooks and their delivery logs: /api/webhooks. Thin handlers around the services. */
export function webhooksRoutes(ctx: AppContext, auth: AuthGuard) {
  const sendTestEvent = testEventSender(ctx)
  const keyed = idempotentWrites(ctx)
  // The secret is in the answer, so a retry under the same key is shown the one secret the webhook has.
  const webhookCreated = (row: Parameters<typeof toWebhookDto>[0]) => ({
    status: 201,
    body: { success: true as const, data: { ...toWebhookDto(row), secret: row.secret } },
  })
  return new Elysia({ name: 'webhooks', prefix: '/api/webhooks' })
    .use(auth)
    .get(
      '',
      async ({ caller }) => ({ success: true as const, data: (await listWebhooks(ctx, { ownerId: caller.ownerId })).map(toWebhookDto) }),
      {
        auth: 'webhooks:write',
        response: { 200: WebhookListEnvelope, ...authFailures },
        detail: { summary: "List the caller's webhooks, oldest first (without their secrets)", tags },
      },
    )
    .post(
      '',
      async ({ request, body, caller, set, audit }) =>
        keyed(request, set, caller, (key) => {
          const webhook = webhookFromJson(body)
          return key.once(
            requestDigest(body),
            async (held) => {
              const row = await createWebhook(ctx, { ownerId: caller.ownerId, webhook, key: held })
              await audit('webhook.created', webhookFacts(row))
              return row
            },
            webhookCreated,
          )
        }),
      {
        auth: 'webhooks:write',
        parse: jsonBody(WebhookJson, 'webhooks:write'),
        body: WebhookJson,
        headers: IdempotencyHeaders,
        response: {
          201: NewWebhookEnvelope,
          400: FailureSchema,
          403: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          ...keyedFailures,
          ...authFailures,
        },
        detail: {
          summary: 'Add a webhook; the answer carries its signing secret, once',
          description: `At most ${WEBHOOK_LIMITS.perUser} webhooks a user (one more: 403). Loopback, private and link-local targets are refused unless the server sets PDFSHARE_WEBHOOK_ALLOW_PRIVATE=1.`,
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
              const deleted = await deleteWebhook(ctx, { ownerId: caller.ownerId, id: params.id, key: held })
              await audit('webhook.deleted', webhookFacts(deleted))
              return deleted
            },
            (deleted: DeletedWebhook) => ({ status: 200, body: { success: true as const, data: { id: deleted.id } } }),
          ),
        ),
      {
        auth: 'webhooks:write',
        headers: IdempotencyHeaders,
        params: WebhookIdParams,
        response: { 200: WebhookDeletedEnvelope, 404: FailureSchema, ...keyedFailures, ...authFailures },
        detail: { summary: 'Delete a webhook and its delivery log; nothing pending is sent to it any more', tags },
      },
    )
    .get(
      '/:id/deliveries',
      async ({ caller, params, query }) => {
        const page = await listDeliveries(ctx, { ownerId: caller.ownerId, id: params.id, limit: query.limit ?? 20, cursor: query.cursor })
        return { success: true as const, data: page.rows.map(toDeliveryDto), nextCursor: page.nextCursor }
      },
      {
        auth: 'webhooks:write',
        params: WebhookIdParams,
        query: DeliveriesQuery,
        response: { 200: DeliveryListEnvelope, 400: FailureSchema, 404: FailureSchema, ...authFailures },
        detail: { summary: "A webhook's delivery log, newest first: status, attempts, last status and error", tags },
      },
    )
    .post(
      '/:id/test',
      async ({ caller, params, set }) => {
        const delivery = await sendTestEvent({ ownerId: caller.ownerId, id: params.id })
        set.status = 202
        return { success: true as const, data: toDeliveryDto(delivery) }
      },
      {
        auth: 'webhooks:write',
        params: WebhookIdParams,
        response: { 202: DeliveryEnvelope, 404: FailureSchema, ...authFailures },
        detail: {
          summary: 'Send a webhook.test event to this webhook',
          description: `Queued like any event (signed, retried, logged); the answer is its delivery, still pending. At most ${WEBHOOK_LIMITS.testsPerMinute} a minute per user (429 with Retry-After).`,
          tags,
        },
      },
    )
}
