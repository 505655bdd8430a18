/**
 * The row types of the tables, from the SQLite schema (the typed source; the PostgreSQL twins give the same
 * rows). The tables themselves come with the opened database (`ctx.db.tables`, db/database.ts).
 */
export type {
  FileRow,
  FileVersionRow,
  InvitationRow,
  MailRow,
  PasskeyRow,
  LinkRow,
  TokenRow,
  UserRow,
  VisitRow,
  AuditEventRow,
  AcceptanceRow,
  NotificationChannelRow,
  NotificationDeliveryRow,
  IdempotencyKeyRow,
  ReaderEventRow,
  WebhookDeliveryRow,
  WebhookRow,
} from './schema'
