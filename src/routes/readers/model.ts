import { t, type Static } from 'elysia'
import { LINK_LIMITS } from '../../shared/link-shapes'

/** One acceptance of a link's agreement. */
export const AcceptanceSchema = t.Object(
  {
    id: t.String(),
    linkId: t.String(),
    version: t.Integer({ description: "The version of the link's agreement text that was accepted (see texts)" }),
    reader: t.Union([t.String(), t.Null()], {
      description: 'The address the reader gave; null when the link asked for none, or it was erased',
    }),
    acceptedAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
  },
  { title: 'Acceptance' },
)
export type AcceptanceDto = Static<typeof AcceptanceSchema>

/** A version of a link's agreement text. */
export const AgreementTextSchema = t.Object(
  {
    linkId: t.String(),
    version: t.Integer(),
    text: t.String(),
    createdAt: t.String({ description: 'When this version was set (ISO 8601 UTC)' }),
  },
  { title: 'AgreementText' },
)

export const AcceptancesEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Object({
    acceptances: t.Array(AcceptanceSchema, { description: 'Newest first, at most 1,000' }),
    texts: t.Array(AgreementTextSchema, { description: 'Every version of the agreement texts the acceptances name' }),
  }),
})

export const EraseJson = t.Object(
  { address: t.String({ minLength: 3, maxLength: LINK_LIMITS.address, description: 'The reader address to erase, e.g. ada@acme.com' }) },
  { error: () => 'The JSON body must be an object with the address to erase, e.g. {"address": "ada@acme.com"}' },
)

export const ErasedEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Object({
    visits: t.Integer({ description: 'Visits of your files that no longer name the address' }),
    acceptances: t.Integer({ description: 'Acceptances of your links that no longer name the address' }),
    events: t.Integer({ description: 'Reader events (what notifications are made of) that no longer name the address' }),
    deliveries: t.Integer({ description: 'Notification messages whose text named the address, now "(erased reader)"' }),
    mails: t.Integer({ description: 'Code mails to the address deleted from the mail outbox' }),
    cachedFiles: t.Integer({
      description: "Watermarked copies of pages and PDFs made for the reader, deleted from this server's page cache",
    }),
  }),
})

export const FileIdParams = t.Object({ id: t.String() })
export const LinkIdParams = t.Object({ linkId: t.String() })
