import { eq } from 'drizzle-orm'
import type { AppContext } from '../context'
import type { RequestRow } from '../../db/tables'
import { isWellFormedId } from '../../lib/ids'

/** The request whose page is `/u/<slug>`, for its senders; undefined for a slug that is not one (a 404 to them). */
export async function requestOfSlug(ctx: AppContext, slug: string): Promise<RequestRow | undefined> {
  if (!isWellFormedId(slug)) return undefined
  const { requests } = ctx.db.tables
  const [row] = await ctx.db.orm.select().from(requests).where(eq(requests.slug, slug))
  return row
}
