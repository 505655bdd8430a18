import { t } from 'elysia'
import { isWellFormedId } from '../../lib/ids'

/**
 * The sender's routes' shapes: the slug of `/u/:slug…` (null for text no slug could be, answered as a request
 * that does not exist), and the receipt `POST /u/:slug/files` answers.
 */
const Slug = t
  .Transform(t.Union([t.String(), t.Null()]))
  .Decode((text) => (text !== null && isWellFormedId(text) ? text : null))
  .Encode((slug) => slug ?? '')

export const RequestSlugParams = t.Object({ slug: Slug })

/** What one sender sent, as stored: each PDF's name, size and SHA-256 (so they can check what arrived). */
export const ReceiptSchema = t.Object(
  {
    files: t.Array(
      t.Object({
        filename: t.String(),
        size: t.Integer({ description: 'Bytes' }),
        sha256: t.String({ description: 'Hex' }),
      }),
    ),
  },
  { title: 'Receipt' },
)
