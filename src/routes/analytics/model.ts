import { t, type Static } from 'elysia'

/** The 400 answers to a bad query, one per parameter. */
export const ANALYTICS_QUERY_ERRORS = {
  from: 'from must be a UTC day as YYYY-MM-DD',
  to: 'to must be a UTC day as YYYY-MM-DD',
  limit: 'limit must be an integer from 1 to 100',
  cursor: 'cursor must be a value of nextCursor',
} as const

// As in the files model: the texts go through a function, so the OpenAPI document stays plain.
const failsWith = (parameter: keyof typeof ANALYTICS_QUERY_ERRORS) => ({ error: () => ANALYTICS_QUERY_ERRORS[parameter] })
const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$'

export const RangeQuery = t.Object({
  from: t.Optional(
    t.String({ pattern: DAY_PATTERN, description: 'First UTC day (YYYY-MM-DD); default: 29 days before `to`', ...failsWith('from') }),
  ),
  to: t.Optional(
    t.String({ pattern: DAY_PATTERN, description: 'Last UTC day (YYYY-MM-DD), included; default: today', ...failsWith('to') }),
  ),
})

export const VisitsQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 50, ...failsWith('limit') })),
  cursor: t.Optional(t.String({ maxLength: 40, description: 'nextCursor of the previous page', ...failsWith('cursor') })),
})

export const FileIdParams = t.Object({ id: t.String() })
export const LinkIdParams = t.Object({ linkId: t.String() })

const count = (description: string) => t.Integer({ minimum: 0, description })

/** A file's or a link's reading analytics over a range of UTC days. Written once: routes, OpenAPI, tests. */
export const AnalyticsSchema = t.Object(
  {
    from: t.String({ description: 'First UTC day of the range, YYYY-MM-DD' }),
    to: t.String({ description: 'Last UTC day of the range (included), YYYY-MM-DD' }),
    totals: t.Object({
      views: count('Counted views (visits that opened the page)'),
      uniqueVisitors: count('Distinct visitor keys per day, summed over the days (a visitor key lives one UTC day)'),
      downloads: count('Visits that downloaded the PDF'),
      medianReadingSeconds: t.Union([t.Number({ minimum: 0 }), t.Null()], {
        description: 'Median reading time of the tracked visits that reported any; null when none did',
      }),
    }),
    viewsPerDay: t.Array(
      t.Object({
        day: t.String({ description: 'YYYY-MM-DD (UTC)' }),
        views: count('Counted views'),
        uniqueVisitors: count('Distinct visitors'),
      }),
      {
        description: 'Every day of the range, oldest first, days without views included',
      },
    ),
    pages: t.Array(
      t.Object({
        page: t.Integer({ minimum: 1 }),
        seconds: t.Number({ minimum: 0, description: 'Reading time on this page over all visits, to a tenth of a second' }),
        visitors: count('Reach: visits that got to this page or further'),
      }),
      { description: 'Page 1 to the furthest page any visit reached' },
    ),
    referrers: t.Array(
      t.Object({ host: t.String({ description: 'Referring host; "" for none (direct, or hidden)' }), views: count('Counted views') }),
      {
        description: 'The 10 hosts with the most views, most first',
      },
    ),
    devices: t.Object({ phone: count('Visits from phones'), tablet: count('Visits from tablets'), desktop: count('Visits from desktops') }),
  },
  { title: 'Analytics' },
)
export type AnalyticsDto = Static<typeof AnalyticsSchema>

/** One visit: a counted view, or a download without one. Never the visitor key. */
export const VisitSchema = t.Object(
  {
    id: t.String(),
    linkId: t.String({ description: 'The share link the visit came through' }),
    at: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
    referrerHost: t.Union([t.String(), t.Null()], { description: 'Host of the referring page; null when none' }),
    device: t.Union([t.Literal('phone'), t.Literal('tablet'), t.Literal('desktop')], {
      description: 'From the User-Agent (see the README)',
    }),
    viewed: t.Boolean({ description: 'The page was opened (false: a direct download)' }),
    downloaded: t.Boolean(),
    readingSeconds: t.Number({ minimum: 0, description: 'Time the viewer reported pages on screen, to a tenth of a second' }),
    tracked: t.Boolean({ description: 'False when the reader sent Sec-GPC: 1 or DNT: 1 (then no reading is recorded)' }),
    reader: t.Union([t.String(), t.Null()], {
      description: 'The address the reader gave at the link (access email or verified-email); null for open links and erased readers',
    }),
  },
  { title: 'Visit' },
)
export type VisitDto = Static<typeof VisitSchema>
/** phone, tablet or desktop, from the reader's User-Agent. */
export type DeviceClass = VisitDto['device']

export const AnalyticsEnvelope = t.Object({ success: t.Literal(true), data: AnalyticsSchema })
export const VisitListEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Array(VisitSchema),
  nextCursor: t.Union([t.String(), t.Null()], { description: 'Pass as ?cursor= for the next page; null on the last page' }),
})

/** One reader's totals over a file's or a link's visits (links that ask for an address). */
export const ReaderTotalsSchema = t.Object(
  {
    reader: t.String({ description: 'The address they gave (verified when the link asks for a code)' }),
    visits: t.Integer({ description: 'Visits: counted views and downloads without one' }),
    views: t.Integer({ description: 'Counted views of the page' }),
    downloads: t.Integer({ description: 'Visits with a download' }),
    pages: t.Integer({ description: 'Distinct pages the viewer reported on screen' }),
    readingSeconds: t.Number({ minimum: 0, description: 'Time pages were on screen, over all visits, to a tenth of a second' }),
    lastVisitAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
  },
  { title: 'ReaderTotals' },
)
export type ReaderTotalsDto = Static<typeof ReaderTotalsSchema>
export const ReaderTotalsEnvelope = t.Object({ success: t.Literal(true), data: t.Array(ReaderTotalsSchema) })

/** A room's analytics (docs/rooms.md, Analytics): per document of the room, and per reader of its gated links. */
export const RoomAnalyticsSchema = t.Object(
  {
    roomId: t.String(),
    documents: t.Array(
      t.Object({
        fileId: t.String(),
        title: t.String({ description: "The file's title now (its filename when it has none)" }),
        folder: t.String({ description: 'Its folder in the room; "" for the top' }),
        views: count("Counted views of the document through the room's links"),
        downloads: count('Visits with a download of it'),
        readers: count('Readers (addresses given at a gate) who opened or downloaded it'),
        readingSeconds: t.Number({ minimum: 0, description: 'Time its pages were on screen, to a tenth of a second' }),
      }),
      { description: "The room's documents now, in its order, unopened ones included" },
    ),
    readers: t.Array(
      t.Object({
        reader: t.String({ description: 'The address they gave at the room link (verified when it asks for a code)' }),
        opened: count('Documents of the room now that they opened (read n of m)'),
        of: count('Documents in the room now'),
        readingSeconds: t.Number({ minimum: 0, description: 'Time pages were on screen, over all documents' }),
        lastVisitAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
        documents: t.Array(
          t.Object({
            fileId: t.String(),
            title: t.String(),
            inRoom: t.Boolean({ description: 'False for a document taken out of the room since' }),
            views: count('Counted views of it'),
            downloads: count('Visits with a download'),
            readingSeconds: t.Number({ minimum: 0 }),
            lastVisitAt: t.String({ description: 'ISO 8601 UTC with milliseconds' }),
          }),
          { description: 'What they opened or downloaded, the latest first' },
        ),
      }),
      { description: `The readers of the room's gated links, the latest first (at most 1000)` },
    ),
  },
  { title: 'RoomAnalytics' },
)
export type RoomAnalyticsDto = Static<typeof RoomAnalyticsSchema>
export const RoomAnalyticsEnvelope = t.Object({ success: t.Literal(true), data: RoomAnalyticsSchema })
export const RoomIdParams = t.Object({ id: t.String() })

/** The columns of a room's CSV: one line per reader and document. */
export const ROOM_CSV_COLUMNS = ['reader', 'fileId', 'title', 'inRoom', 'views', 'downloads', 'readingSeconds', 'lastVisitAt'] as const
