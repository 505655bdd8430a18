import { t, type Static, type TSchema } from 'elysia'
import { oneOf } from '../../http/schemas'

/** Mail's shapes (docs/operations.md, Mail), written once for routes, document and dashboard. */

export const TestMailBody = t.Object(
  { to: t.String({ minLength: 3, maxLength: 254, format: 'email', error: () => 'to must be an email address' }) },
  { additionalProperties: true, error: () => 'The body must be a JSON object, e.g. {"to": "you@example.com"}' },
)

export const MailSchema = t.Object(
  {
    id: t.String(),
    kind: t.String({ description: 'What it is: invitation, …' }),
    to: t.String(),
    subject: t.String(),
    status: oneOf(['pending', 'sent', 'failed']),
    attempts: t.Integer(),
    lastResponse: t.Union([t.String(), t.Null()], { description: "The SMTP server's last answer, or why it could not be reached" }),
    createdAt: t.String(),
    sentAt: t.Union([t.String(), t.Null()]),
  },
  { title: 'Mail' },
)
export type MailDto = Static<typeof MailSchema>

const success = <T extends TSchema>(data: T) => t.Object({ success: t.Literal(true), data })
export const MailListEnvelope = success(t.Array(MailSchema))
export const TestMailEnvelope = success(
  t.Object({
    accepted: t.Boolean(),
    response: t.String({ description: 'Exactly what the SMTP server answered (or why it could not be reached)' }),
  }),
)
