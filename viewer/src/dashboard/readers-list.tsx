import { useState } from 'preact/hooks'
import type { ReaderTotalsDto } from '../../../src/routes/analytics/model'
import { api, errorText, ok } from './api'
import { formatDate, formatDuration } from './format'
import { useLoad } from './use-api'
import { ConfirmDialog, notify } from './ui'
import { TableHead } from './table-head'
import { t } from './i18n'

/**
 * Who read the file (or one link) through links that ask for an address: per reader, visits, pages, reading
 * time and downloads, and a way to erase one reader's address from every visit and acceptance of your files.
 */
export function ReadersList(props: { fileId: string; linkId: string; onErased: () => void }) {
  const readers = useLoad(
    () => ok(props.linkId ? api.api.links({ linkId: props.linkId }).readers.get() : api.api.files({ id: props.fileId }).readers.get()),
    [props.fileId, props.linkId],
    { failure: t('readersList.loadFailed') },
  )
  const [erasing, setErasing] = useState<ReaderTotalsDto | null>(null)
  const erase = async (reader: ReaderTotalsDto) => {
    setErasing(null)
    try {
      const { data } = await ok(api.api.readers.erase.post({ address: reader.reader }))
      notify('ok', t('readersList.erased', { reader: reader.reader, visits: data.visits, acceptances: data.acceptances }))
      await readers.reload()
      props.onErased()
    } catch (failure) {
      notify('error', errorText(failure, t('readersList.notErased')))
    }
  }

  if (readers.error) {
    return (
      <p class="form-error" role="alert">
        {readers.error}
      </p>
    )
  }
  if (readers.value === null) return <p>{t('readersList.loading')}</p>
  if (readers.value.length === 0) {
    return <p class="hint">{t('readersList.none')}</p>
  }
  return (
    <>
      <div class="table-wrap">
        <table class="readers-table">
          <caption class="visually-hidden">{t('readersList.caption')}</caption>
          <TableHead
            columns={[
              t('visits.col.reader'),
              t('readersList.col.visits'),
              t('readersList.col.pages'),
              t('visits.col.reading'),
              t('an.downloads'),
              t('readersList.col.last'),
            ]}
            unnamed={t('readersList.col.erase')}
          />
          <tbody>
            {readers.value.map((reader) => (
              <tr key={reader.reader}>
                <th scope="row">{reader.reader}</th>
                <td data-label={t('readersList.col.visits')}>{reader.visits}</td>
                <td data-label={t('readersList.col.pages')}>{reader.pages}</td>
                <td data-label={t('visits.col.reading')}>
                  {reader.readingSeconds > 0 ? formatDuration(reader.readingSeconds) : t('visits.noneReported')}
                </td>
                <td data-label={t('an.downloads')}>{reader.downloads}</td>
                <td data-label={t('readersList.col.last')}>
                  <time dateTime={reader.lastVisitAt}>{formatDate(reader.lastVisitAt)}</time>
                </td>
                <td>
                  <button type="button" class="danger" onClick={() => setErasing(reader)}>
                    {t('readersList.col.erase')}
                    <span class="visually-hidden"> {reader.reader}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={erasing !== null}
        title={t('readersList.confirm', { reader: erasing?.reader ?? t('readersList.thisReader') })}
        confirm={t('readersList.eraseConfirm')}
        danger
        onConfirm={() => erasing && erase(erasing)}
        onClose={() => setErasing(null)}
      >
        <p>{t('readersList.eraseText')}</p>
      </ConfirmDialog>
    </>
  )
}
