import type { RoomAnalyticsDto } from '../../../src/routes/analytics/model'
import { api, download, errorText, ok } from './api'
import { formatDate, formatDuration } from './format'
import { notify } from './ui'
import { useLoad } from './use-api'
import { TableHead } from './table-head'
import { t, tx } from './i18n'

/** What was read of each document of the room, through all its links. */
function Documents(props: { documents: RoomAnalyticsDto['documents'] }) {
  return (
    <table class="room-analytics-documents">
      <caption>{t('room.documents')}</caption>
      <TableHead columns={[t('roomAn.col.document'), t('an.views'), t('an.downloads'), t('an.readers'), t('visits.col.reading')]} />
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
    return <p>{t('roomAn.noReaders')}</p>
  }
  return (
    <ul class="room-analytics-readers">
      {props.readers.map((reader) => (
        <li key={reader.reader}>
          <details>
            <summary>
              {tx('roomAn.reader', {
                reader: <strong>{reader.reader}</strong>,
                opened: reader.opened,
                of: reader.of,
                time: formatDuration(reader.readingSeconds),
                date: formatDate(reader.lastVisitAt),
              })}
            </summary>
            <ul>
              {reader.documents.map((document) => (
                <li key={document.fileId}>
                  {t('roomAn.document', {
                    title: document.title,
                    out: document.inRoom ? 'no' : 'yes',
                    views: document.views,
                    downloads: document.downloads,
                    time: formatDuration(document.readingSeconds),
                  })}
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
    failure: t('an.loadFailed'),
  })
  const data = analytics.value

  const csv = async () => {
    try {
      await download(`/rooms/${props.roomId}/analytics.csv`, `${props.name}-readers.csv`)
    } catch (failure) {
      notify('error', errorText(failure, t('roomAn.csvFailed')))
    }
  }

  return (
    <section class="card analytics" aria-labelledby="room-analytics-heading" aria-busy={analytics.loading}>
      <div class="page-head">
        <h2 id="room-analytics-heading">{t('an.heading')}</h2>
        <div class="row">
          <button type="button" onClick={analytics.reload}>
            {t('roomAn.reload')}
          </button>
          <button type="button" onClick={csv}>
            {t('roomAn.csv')}
          </button>
        </div>
      </div>
      {analytics.error && (
        <p class="form-error" role="alert">
          {analytics.error}
        </p>
      )}
      {data === null && !analytics.error && <p>{t('an.loading')}</p>}
      {data && (
        <>
          <Documents documents={data.documents} />
          <h3>{t('an.readers')}</h3>
          <Readers readers={data.readers} />
        </>
      )}
    </section>
  )
}
