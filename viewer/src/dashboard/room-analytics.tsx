import type { RoomAnalyticsDto } from '../../../src/routes/analytics/model'
import { api, download, errorText, ok } from './api'
import { formatDate, formatDuration } from './format'
import { notify } from './ui'
import { useLoad } from './use-api'
import { TableHead } from './table-head'

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** What was read of each document of the room, through all its links. */
function Documents(props: { documents: RoomAnalyticsDto['documents'] }) {
  return (
    <table class="room-analytics-documents">
      <caption>Documents</caption>
      <TableHead columns={['Document', 'Views', 'Downloads', 'Readers', 'Reading time']} />
      <tbody>
        {props.documents.map((document) => (
          <tr key={document.fileId}>
            <th scope="row">
              {document.folder && <span class="hint">{document.folder}/</span>}
              {document.title}
            </th>
            <td>{document.views}</td>
            <td>{document.downloads}</td>
            <td>{document.readers}</td>
            <td>{formatDuration(document.readingSeconds)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Per reader of the room's gated links: read n of m, and for how long each document. */
function Readers(props: { readers: RoomAnalyticsDto['readers'] }) {
  if (props.readers.length === 0) {
    return <p>No reader has given an address yet: readers are named on links that ask for one.</p>
  }
  return (
    <ul class="room-analytics-readers">
      {props.readers.map((reader) => (
        <li key={reader.reader}>
          <details>
            <summary>
              <strong>{reader.reader}</strong> read {reader.opened} of {plural(reader.of, 'document', 'documents')} ·{' '}
              {formatDuration(reader.readingSeconds)} · last {formatDate(reader.lastVisitAt)}
            </summary>
            <ul>
              {reader.documents.map((document) => (
                <li key={document.fileId}>
                  {document.title}
                  {!document.inRoom && ' (taken out of the room since)'}: {plural(document.views, 'view', 'views')}
                  {document.downloads > 0 && `, ${plural(document.downloads, 'download', 'downloads')}`},{' '}
                  {formatDuration(document.readingSeconds)}
                </li>
              ))}
            </ul>
          </details>
        </li>
      ))}
    </ul>
  )
}

/** The room's analytics (GET /api/rooms/:id/analytics), and its readers as CSV. */
export function RoomAnalytics(props: { roomId: string; name: string }) {
  const analytics = useLoad(() => ok(api.api.rooms({ id: props.roomId }).analytics.get()), [props.roomId], {
    failure: 'The analytics could not be loaded',
  })
  const data = analytics.value

  const csv = async () => {
    try {
      await download(`/rooms/${props.roomId}/analytics.csv`, `${props.name}-readers.csv`)
    } catch (failure) {
      notify('error', errorText(failure, 'The readers could not be downloaded'))
    }
  }

  return (
    <section class="card analytics" aria-labelledby="room-analytics-heading" aria-busy={analytics.loading}>
      <div class="page-head">
        <h2 id="room-analytics-heading">Analytics</h2>
        <div class="row">
          <button type="button" onClick={analytics.reload}>
            Reload
          </button>
          <button type="button" onClick={csv}>
            Readers as CSV
          </button>
        </div>
      </div>
      {analytics.error && (
        <p class="form-error" role="alert">
          {analytics.error}
        </p>
      )}
      {data === null && !analytics.error && <p>Loading the analytics…</p>}
      {data && (
        <>
          <Documents documents={data.documents} />
          <h3>Readers</h3>
          <Readers readers={data.readers} />
        </>
      )}
    </section>
  )
}
