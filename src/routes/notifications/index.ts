import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { CHANNEL_TESTS_PER_MINUTE } from '../../core/notifications/channels'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import {
  ChannelDeletedEnvelope,
  ChannelEnvelope,
  ChannelIdParams,
  ChannelJson,
  ChannelListEnvelope,
  DeliveriesQuery,
  DeliveryEnvelope,
  DeliveryListEnvelope,
} from './model'
import { channelFacts, toChannelDto, toDeliveryDto } from '../../core/notifications/presenter'
import {
  addChannel,
  channelTester,
  deleteChannel,
  listChannels,
  listNotificationDeliveries,
} from '../../core/notifications/manage-channels'

const tags = ['notifications']

/**
 * The owner's notification channels (/api/notifications/channels) and their delivery log
 * (/api/notifications/deliveries). What is sent, and when, is the notifier's (worker/notifier.ts).
 */
export function notificationsRoutes(ctx: AppContext, auth: AuthGuard) {
  const testChannel = channelTester(ctx)
  return new Elysia({ name: 'notifications', prefix: '/api/notifications' })
    .use(auth)
    .get(
      '/channels',
      async ({ caller }) => ({ success: true as const, data: (await listChannels(ctx, { ownerId: caller.ownerId })).map(toChannelDto) }),
      {
        auth: 'webhooks:write',
        response: { 200: ChannelListEnvelope, ...authFailures },
        detail: { summary: 'Your notification channels, oldest first', tags },
      },
    )
    .post(
      '/channels',
      async ({ body, caller, set, audit }) => {
        const row = await addChannel(ctx, { ownerId: caller.ownerId, kind: body.kind, target: body.target })
        await audit('notification_channel.created', channelFacts(row))
        set.status = 201
        return { success: true as const, data: toChannelDto(row) }
      },
      {
        auth: 'webhooks:write',
        parse: jsonBody(ChannelJson, 'webhooks:write'),
        body: ChannelJson,
        response: { 201: ChannelEnvelope, 400: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures },
        detail: {
          summary: 'Add a notification channel: an email address, or an ntfy, Gotify, Slack, Discord or Matrix URL (at most 20)',
          tags,
        },
      },
    )
    .delete(
      '/channels/:id',
      async ({ caller, params, audit }) => {
        const row = await deleteChannel(ctx, { ownerId: caller.ownerId, id: params.id })
        await audit('notification_channel.deleted', channelFacts(row))
        return { success: true as const, data: { id: row.id } }
      },
      {
        auth: 'webhooks:write',
        params: ChannelIdParams,
        response: { 200: ChannelDeletedEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: 'Delete a notification channel and its deliveries', tags },
      },
    )
    .post(
      '/channels/:id/test',
      async ({ caller, params, set }) => {
        const { delivery, kind } = await testChannel({ ownerId: caller.ownerId, id: params.id })
        set.status = 202
        return { success: true as const, data: toDeliveryDto(delivery, kind) }
      },
      {
        auth: 'webhooks:write',
        params: ChannelIdParams,
        response: { 202: DeliveryEnvelope, 404: FailureSchema, ...authFailures },
        detail: {
          summary: 'Send a test notification to a channel now (its delivery shows in the log)',
          description: `At most ${CHANNEL_TESTS_PER_MINUTE} a minute per user (429 with Retry-After).`,
          tags,
        },
      },
    )
    .get(
      '/deliveries',
      async ({ caller, query }) => ({
        success: true as const,
        data: (await listNotificationDeliveries(ctx, { ownerId: caller.ownerId, limit: query.limit ?? 50 })).map((row) =>
          toDeliveryDto(row.delivery, row.kind),
        ),
      }),
      {
        auth: 'webhooks:write',
        query: DeliveriesQuery,
        response: { 200: DeliveryListEnvelope, 400: FailureSchema, ...authFailures },
        detail: { summary: 'Your most recent notification deliveries, newest first, with how each went', tags },
      },
    )
}
