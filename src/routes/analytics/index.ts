import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import type { AuthGuard } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import {
  AnalyticsEnvelope,
  FileIdParams,
  LinkIdParams,
  RangeQuery,
  ReaderTotalsEnvelope,
  ROOM_CSV_COLUMNS,
  RoomAnalyticsEnvelope,
  RoomIdParams,
  VisitListEnvelope,
  VisitsQuery,
} from './model'
import { roomAnalytics } from '../../core/analytics/room-analytics'
import { CSV_COLUMNS, csvLine, toVisitDto, visitCsvLine } from '../../core/analytics/presenter'
import { getAnalytics } from '../../core/analytics/get-analytics'
import { listVisits, visitsForExport } from '../../core/analytics/list-visits'
import { readerTotals } from '../../core/analytics/reader-totals'
import type { ScopeInput } from '../../core/analytics/scope'

const tags = ['analytics']
const RANGE_WORDS = 'Optional ?from=&to= (UTC days, YYYY-MM-DD; default the last 30 days, at most 366).'

/**
 * The owner's reading analytics of a file (all its links) or of one link: the numbers and the visits list,
 * and a file's visits as CSV. Another user's file or link is a 404, like a missing one.
 */
/** The OpenAPI description of a CSV export. */
const csvDetail = (summary: string, columns: readonly string[] = CSV_COLUMNS) => ({
  summary,
  tags,
  responses: {
    200: {
      description: `CSV with a header line: ${columns.join(', ')}`,
      content: { 'text/csv': { schema: { type: 'string' as const } } },
    },
    401: { description: 'Missing or invalid token', content: { 'application/json': { schema: FailureSchema } } },
    404: { description: 'Not found', content: { 'application/json': { schema: FailureSchema } } },
    429: { description: 'Rate limited', content: { 'application/json': { schema: FailureSchema } } },
  },
})

export function analyticsRoutes(ctx: AppContext, auth: AuthGuard) {
  /** Every visit of the scope as CSV, streamed page by page (404 first for another user's file or link). */
  const csvOf = async (scope: ScopeInput, filename: string) => {
    const pages = await visitsForExport(ctx, scope)
    const encoder = new TextEncoder()
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(encoder.encode(csvLine([...CSV_COLUMNS]))),
      pull: async (controller) => {
        const next = await pages.next()
        if (next.done) return controller.close()
        controller.enqueue(encoder.encode(next.value.map((row) => visitCsvLine(toVisitDto(row))).join('')))
      },
      cancel: () => void pages.return(undefined),
    })
    return new Response(body, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${filename}"`,
        'cache-control': 'private, no-store',
      },
    })
  }
  const visitsPage = async (scope: ScopeInput, query: { limit?: number; cursor?: string }) => {
    const { rows, nextCursor } = await listVisits(ctx, { ...scope, limit: query.limit ?? 50, cursor: query.cursor })
    return { success: true as const, data: rows.map(toVisitDto), nextCursor }
  }
  const numbers = { 200: AnalyticsEnvelope, 400: FailureSchema, 404: FailureSchema, ...authFailures }
  const list = { 200: VisitListEnvelope, 400: FailureSchema, 404: FailureSchema, ...authFailures }
  const readers = { 200: ReaderTotalsEnvelope, 404: FailureSchema, ...authFailures }

  return new Elysia({ name: 'analytics' })
    .use(auth)
    .get(
      '/api/files/:id/analytics',
      async ({ caller, params, query }) => ({
        success: true as const,
        data: await getAnalytics(ctx, { ownerId: caller.ownerId, fileId: params.id, ...query }),
      }),
      {
        auth: 'analytics:read',
        params: FileIdParams,
        query: RangeQuery,
        response: numbers,
        detail: { summary: "A file's reading analytics over all its links", description: RANGE_WORDS, tags },
      },
    )
    .get(
      '/api/links/:linkId/analytics',
      async ({ caller, params, query }) => ({
        success: true as const,
        data: await getAnalytics(ctx, { ownerId: caller.ownerId, linkId: params.linkId, ...query }),
      }),
      {
        auth: 'analytics:read',
        params: LinkIdParams,
        query: RangeQuery,
        response: numbers,
        detail: { summary: "A share link's reading analytics", description: RANGE_WORDS, tags },
      },
    )
    .get('/api/files/:id/visits', ({ caller, params, query }) => visitsPage({ ownerId: caller.ownerId, fileId: params.id }, query), {
      auth: 'analytics:read',
      params: FileIdParams,
      query: VisitsQuery,
      response: list,
      detail: { summary: "A file's visits, newest first (paged)", tags },
    })
    .get(
      '/api/links/:linkId/visits',
      ({ caller, params, query }) => visitsPage({ ownerId: caller.ownerId, linkId: params.linkId }, query),
      {
        auth: 'analytics:read',
        params: LinkIdParams,
        query: VisitsQuery,
        response: list,
        detail: { summary: "A share link's visits, newest first (paged)", tags },
      },
    )
    .get(
      '/api/files/:id/readers',
      async ({ caller, params }) => ({
        success: true as const,
        data: await readerTotals(ctx, { ownerId: caller.ownerId, fileId: params.id }),
      }),
      {
        auth: 'analytics:read',
        params: FileIdParams,
        response: readers,
        detail: { summary: "Per reader of a file's links that ask for an address: visits, views, downloads, pages, reading time", tags },
      },
    )
    .get(
      '/api/links/:linkId/readers',
      async ({ caller, params }) => ({
        success: true as const,
        data: await readerTotals(ctx, { ownerId: caller.ownerId, linkId: params.linkId }),
      }),
      {
        auth: 'analytics:read',
        params: LinkIdParams,
        response: readers,
        detail: { summary: 'Per reader of a share link that asks for an address: visits, views, downloads, pages, reading time', tags },
      },
    )
    .get(
      '/api/rooms/:id/analytics',
      async ({ caller, params }) => ({
        success: true as const,
        data: await roomAnalytics(ctx, { ownerId: caller.ownerId, roomId: params.id }),
      }),
      {
        auth: 'analytics:read',
        params: RoomIdParams,
        response: { 200: RoomAnalyticsEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: "A room's analytics: per document, and per reader of its gated links which documents they opened", tags },
      },
    )
    .get(
      '/api/rooms/:id/analytics.csv',
      async ({ caller, params }) => {
        const { readers } = await roomAnalytics(ctx, { ownerId: caller.ownerId, roomId: params.id })
        const lines = readers.flatMap(({ reader, documents }) =>
          documents.map((d) => csvLine(ROOM_CSV_COLUMNS.map((column) => (column === 'reader' ? reader : d[column])))),
        )
        return new Response([csvLine([...ROOM_CSV_COLUMNS]), ...lines].join(''), {
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="room-${params.id.replace(/[^A-Za-z0-9_-]/g, '_')}.csv"`,
            'cache-control': 'private, no-store',
          },
        })
      },
      {
        auth: 'analytics:read',
        params: RoomIdParams,
        detail: csvDetail("Per reader and document of a room's gated links, as CSV", ROOM_CSV_COLUMNS),
      },
    )
    .get(
      '/api/files/:id/visits.csv',
      ({ caller, params }) => csvOf({ ownerId: caller.ownerId, fileId: params.id }, `visits-${params.id}.csv`),
      {
        auth: 'analytics:read',
        params: FileIdParams,
        detail: csvDetail("All of a file's visits as CSV (every visit kept, newest first)"),
      },
    )
    .get(
      '/api/links/:linkId/visits.csv',
      ({ caller, params }) => csvOf({ ownerId: caller.ownerId, linkId: params.linkId }, `visits-${params.linkId}.csv`),
      {
        auth: 'analytics:read',
        params: LinkIdParams,
        detail: csvDetail("All of a share link's visits as CSV (every visit kept, newest first)"),
      },
    )
}
