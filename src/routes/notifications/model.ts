import { t, type Static } from 'elysia'
import { CHANNEL_KINDS, TARGET_EXAMPLES } from '../../core/notifications/channels'

// Spelled out (CHANNEL_KINDS in the same order), so the static type is the union of the six names.
const KIND = t.Union(
  [t.Literal('email'), t.Literal('ntfy'), t.Literal('gotify'), t.Literal('slack'), t.Literal('discord'), t.Literal('matrix')],
  { description: 'email, or the format of the service the URL belongs to', error: () => `kind must be one of ${CHANNEL_KINDS.join(', ')}` },
)

/** A notification channel: where the owner is told of readers. */
export const ChannelSchema = t.Object(
  {
    id: t.String(),
    kind: KIND,
    target: t.String({
      description: 'The email address, or the URL shortened to its host and the start of its path (the whole URL is a secret)',
    }),
    createdAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
  },
  { title: 'NotificationChannel' },
)
export type ChannelDto = Static<typeof ChannelSchema>

export const ChannelJson = t.Object(
  {
    kind: KIND,
    target: t.String({
      maxLength: 2000,
      description: `An address for email; else the URL you paste, e.g. ${Object.entries(TARGET_EXAMPLES)
        .filter(([kind]) => kind !== 'email')
        .map(([kind, example]) => `${kind}: ${example}`)
        .join('; ')}`,
    }),
  },
  { error: () => `The JSON body must be {"kind": one of ${CHANNEL_KINDS.join(', ')}, "target": an address or a URL}` },
)

/** One message to one channel, and how its delivery went. */
export const NotificationDeliverySchema = t.Object(
  {
    id: t.String(),
    channelId: t.String(),
    kind: KIND,
    title: t.String(),
    body: t.String(),
    status: t.Union([t.Literal('pending'), t.Literal('delivered'), t.Literal('failed')]),
    attempts: t.Integer(),
    lastStatus: t.Union([t.Integer(), t.Null()], { description: 'The HTTP status of the last attempt; null for mail and for no answer' }),
    lastError: t.Union([t.String(), t.Null()], { description: 'What went wrong on the last attempt (the server’s answer)' }),
    createdAt: t.String(),
    deliveredAt: t.Union([t.String(), t.Null()]),
  },
  { title: 'NotificationDelivery' },
)
export type NotificationDeliveryDto = Static<typeof NotificationDeliverySchema>

export const ChannelEnvelope = t.Object({ success: t.Literal(true), data: ChannelSchema })
export const ChannelListEnvelope = t.Object({ success: t.Literal(true), data: t.Array(ChannelSchema) })
export const ChannelDeletedEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ id: t.String() }) })
export const DeliveryEnvelope = t.Object({ success: t.Literal(true), data: NotificationDeliverySchema })
export const DeliveryListEnvelope = t.Object({ success: t.Literal(true), data: t.Array(NotificationDeliverySchema) })
export const ChannelIdParams = t.Object({ id: t.String() })
export const DeliveriesQuery = t.Object({ limit: t.Optional(t.Integer({ minimum: 1, maximum: 200, description: 'Default 50' })) })
