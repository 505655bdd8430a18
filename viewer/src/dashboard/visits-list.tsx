import type { VisitDto } from '../../../src/routes/analytics/model'
import type { LinkDto } from '../../../src/routes/links/model'
import { api, ok } from './api'
import { formatDate, formatDuration } from './format'
import { linkName } from './links-panel'
import { usePages } from './use-api'
import { TableHead } from './table-head'
import { t } from './i18n'

const PAGE_SIZE = 20

/** What a visit did, in words: viewed, downloaded or both. */
const actions = (visit: VisitDto) =>
  [visit.viewed && t('visits.viewed'), visit.downloaded && t('visits.downloaded')].filter(Boolean).join(', ')

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
    { failure: t('visits.loadFailed') },
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
  if (visits === null) return <p>{t('visits.loading')}</p>
  const withReaders = visits.some((visit) => visit.reader !== null)
  if (visits.length === 0) {
    return <p class="hint">{t('visits.none')}</p>
  }
  return (
    <>
      <div class="table-wrap">
        <table class="visits-table">
          <caption class="visually-hidden">{t('visits.caption')}</caption>
          <TableHead
            columns={[
              t('visits.col.when'),
              t('file.link'),
              withReaders && t('visits.col.reader'),
              t('an.col.from'),
              t('an.col.device'),
              t('visits.col.what'),
              t('visits.col.reading'),
            ]}
          />
          <tbody>
            {visits.map((visit) => (
              <tr key={visit.id}>
                <td>
                  <time dateTime={visit.at}>{formatDate(visit.at)}</time>
                </td>
                <td data-label={t('file.link')}>{names.get(visit.linkId) ?? '—'}</td>
                {withReaders && <td data-label={t('visits.col.reader')}>{visit.reader ?? '—'}</td>}
                <td data-label={t('an.col.from')}>{visit.referrerHost || t('an.direct')}</td>
                <td data-label={t('an.col.device')}>{t('an.device', { device: visit.device })}</td>
                <td data-label={t('visits.col.what')}>{actions(visit)}</td>
                <td data-label={t('visits.col.reading')}>
                  {!visit.tracked
                    ? t('visits.notTracked')
                    : visit.readingSeconds > 0
                      ? formatDuration(visit.readingSeconds)
                      : t('visits.noneReported')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.hasMore && (
        <button type="button" disabled={list.loadingMore} onClick={list.more}>
          {list.loadingMore ? t('common.loading') : t('visits.more')}
        </button>
      )}
    </>
  )
}
