import { accountTables } from './accounts'
import { analyticsTables } from './analytics'
import { auditTables } from './audit'
import { brandingTables } from './branding'
import { fileTables } from './files'
import { idempotencyTables } from './idempotency'
import type { Kit } from './kit'
import { limitTables } from './limits'
import { linkTables } from './links'
import { mailTables } from './mail'
import { metaTables } from './meta'
import { notificationTables } from './notifications'
import { readerTables } from './readers'
import { requestTables } from './requests'
import { roomTables } from './rooms'
import { shareTables } from './share'
import { ownerTables } from './owners'
import { teamMemberTables } from './teams'
import { webhookTables } from './webhooks'

/**
 * Every table of the database, defined once and built with a dialect's kit (./kit.ts): db/schema.ts builds the
 * SQLite tables, db/pg/schema.ts the PostgreSQL ones, from these same definitions. The result is the table map
 * a database carries (`ctx.db.tables`), keyed as the services name the tables. Each concept's tables are in a
 * file of its name here, beside the others rather than in its core folder: the database layer builds them, and
 * it imports nothing of the core.
 *
 * Timestamps are integer milliseconds since the epoch (UTC); the API formats them as ISO 8601. No column has a
 * JS-side default: every value is set by the service that writes the row.
 */
export function tablesOf(k: Kit) {
  const owners = ownerTables(k)
  const accounts = accountTables(k, owners)
  const files = fileTables(k, owners)
  const rooms = roomTables(k, { ...owners, ...files })
  const links = linkTables(k, { ...files, ...rooms })
  const requests = requestTables(k, { ...owners, ...rooms })
  return {
    ...owners,
    ...accounts,
    ...teamMemberTables(k, { ...owners, ...accounts }),
    ...files,
    ...rooms,
    ...links,
    ...requests,
    ...shareTables(k, links),
    ...analyticsTables(k, { ...files, ...links }),
    ...readerTables(k, { ...files, ...links }),
    ...webhookTables(k, owners),
    ...mailTables(k),
    ...notificationTables(k, { ...owners, ...links }),
    ...auditTables(k),
    ...brandingTables(k),
    ...limitTables(k),
    ...idempotencyTables(k, owners),
    ...metaTables(k),
  }
}

/** The tables every query is built from, as the SQLite kit types them; a PostgreSQL database's are built alike. */
export type Tables = ReturnType<typeof tablesOf>

/** The rows the services pass around (what a select of the whole table gives). */
export type UserRow = Tables['users']['$inferSelect']
export type TeamRow = Tables['teams']['$inferSelect']
export type TokenRow = Tables['tokens']['$inferSelect']
export type FileRow = Tables['files']['$inferSelect']
export type LinkRow = Tables['links']['$inferSelect']
export type RoomRow = Tables['rooms']['$inferSelect']
export type FileVersionRow = Tables['fileVersions']['$inferSelect']
export type VisitRow = Tables['visits']['$inferSelect']
export type WebhookRow = Tables['webhooks']['$inferSelect']
export type WebhookDeliveryRow = Tables['webhookDeliveries']['$inferSelect']
export type AuditEventRow = Tables['auditEvents']['$inferSelect']
export type InvitationRow = Tables['invitations']['$inferSelect']
export type PasskeyRow = Tables['passkeys']['$inferSelect']
export type MailRow = Tables['mailOutbox']['$inferSelect']
export type AcceptanceRow = Tables['acceptances']['$inferSelect']
export type NotificationChannelRow = Tables['notificationChannels']['$inferSelect']
export type ReaderEventRow = Tables['readerEvents']['$inferSelect']
export type NotificationDeliveryRow = Tables['notificationDeliveries']['$inferSelect']
export type IdempotencyKeyRow = Tables['idempotencyKeys']['$inferSelect']
export type RequestRow = Tables['requests']['$inferSelect']
