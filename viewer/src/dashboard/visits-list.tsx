import type { DeviceClass, VisitDto } from '../../../src/routes/analytics/model'
import type { LinkDto } from '../../../src/routes/links/model'
import { api, ok } from './api'
import { formatDate, formatDuration } from './format'
import { linkName } from './links-panel'
import { usePages } from './use-api'
import { TableHead } from './table-head'

const PAGE_SIZE = 20
const DEVICE_TEXT: Record<DeviceClass, string> = { desktop: 'Desktop', phone: 'Phone', tablet: 'Tablet' }

/** What a visit did, in words: viewed, downloaded or both. */
const actions = (visit: VisitDto) => [visit.viewed && 'Viewed', visit.downloaded && 'Downloaded'].filter(Boolean).join(', ')

/**
 * The newest visits of the file (or of one link), 20 at a time with "Show more". Who the reader was only where
 * a link asked for their address (the Reader column appears when a visit has one).
 */
export function VisitsList(props: { fileId: string; linkId: string; links: LinkDto[] }) {
  const list = usePages(
    (cursor) =>
      ok(
        props.linkId
          ? api.api.links({ linkId: props.linkId }).visits.get({ query: { limit: PAGE_SIZE, cursor } })
          : api.api.files({ id: props.fileId }).visits.get({ query: { limit: PAGE_SIZE, cursor } }),
      ),
    [props.fileId, props.linkId],
    { failure: 'The visits could not be loaded' },
  )
  const visits = list.items

  const names = new Map(props.links.map((link) => [link.id, linkName(link)]))
  if (list.error) {
    return (
      <p class="form-error" role="alert">
        {list.error}
      </p>
    )
  }
  if (visits === null) return <p>Loading the visits…</p>
  const withReaders = visits.some((visit) => visit.reader !== null)
  if (visits.length === 0) {
    return <p class="hint">No visits yet. Each counted view and each download appears here, newest first, with where it came from.</p>
  }
  return (
    <>
      <div class="table-wrap">
        <table class="visits-table">
          <caption class="visually-hidden">Recent visits, newest first</caption>
          <TableHead columns={['When', 'Link', withReaders && 'Reader', 'From', 'Device', 'What', 'Reading time']} />
          <tbody>
            {visits.map((visit) => (
              <tr key={visit.id}>
                <td>
                  <time dateTime={visit.at}>{formatDate(visit.at)}</time>
                </td>
                <td data-label="Link">{names.get(visit.linkId) ?? '—'}</td>
                {withReaders && <td data-label="Reader">{visit.reader ?? '—'}</td>}
                <td data-label="From">{visit.referrerHost || 'Direct or unknown'}</td>
                <td data-label="Device">{DEVICE_TEXT[visit.device] ?? visit.device}</td>
                <td data-label="What">{actions(visit)}</td>
                <td data-label="Reading time">
                  {!visit.tracked
                    ? 'not tracked (asked not to be)'
                    : visit.readingSeconds > 0
                      ? formatDuration(visit.readingSeconds)
                      : 'none reported'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.hasMore && (
        <button type="button" disabled={list.loadingMore} onClick={list.more}>
          {list.loadingMore ? 'Loading…' : 'Show more visits'}
        </button>
      )}
    </>
  )
}
