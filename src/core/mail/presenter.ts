import type { MailRow } from '../../db/tables'
import type { MailDto } from '../../routes/mail/model'

const iso = (ms: number) => new Date(ms).toISOString()

export function toMailDto(row: MailRow): MailDto {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    status: row.status === 'sent' || row.status === 'failed' ? row.status : 'pending',
    attempts: row.attempts,
    lastResponse: row.lastResponse,
    createdAt: iso(row.createdAt),
    sentAt: row.sentAt === null ? null : iso(row.sentAt),
  }
}
