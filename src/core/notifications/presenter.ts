import { type ChannelKind, shownTarget } from './channels'
import type { NotificationChannelRow, NotificationDeliveryRow } from '../../db/tables'
import type { ChannelDto, NotificationDeliveryDto } from '../../routes/notifications/model'

const iso = (ms: number) => new Date(ms).toISOString()

/** A channel as answers show it: never its whole URL, which is the secret that lets anyone post there. */
export function toChannelDto(row: NotificationChannelRow): ChannelDto {
  const kind = row.kind as ChannelKind
  return { id: row.id, kind, target: shownTarget(kind, row.target), createdAt: iso(row.createdAt) }
}

export function toDeliveryDto(row: NotificationDeliveryRow, kind: string): NotificationDeliveryDto {
  return {
    id: row.id,
    channelId: row.channelId,
    kind: kind as ChannelKind,
    title: row.title,
    body: row.body,
    status: row.status as NotificationDeliveryDto['status'],
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    createdAt: iso(row.createdAt),
    deliveredAt: row.deliveredAt === null ? null : iso(row.deliveredAt),
  }
}

/** A channel as the audit log keeps it: its kind and where, never a URL's path or token. */
export const channelFacts = (row: NotificationChannelRow) => ({
  channelId: row.id,
  kind: row.kind,
  target: row.kind === 'email' ? row.target : new URL(row.target).host,
})
