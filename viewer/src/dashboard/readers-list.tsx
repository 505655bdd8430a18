import { useState } from 'preact/hooks'
import type { ReaderTotalsDto } from '../../../src/routes/analytics/model'
import { api, errorText, ok } from './api'
import { formatDate, formatDuration } from './format'
import { useLoad } from './use-api'
import { ConfirmDialog, notify } from './ui'
import { TableHead } from './table-head'

/**
 * Who read the file (or one link) through links that ask for an address: per reader, visits, pages, reading
 * time and downloads, and a way to erase one reader's address from every visit and acceptance of your files.
 */
export function ReadersList(props: { fileId: string; linkId: string; onErased: () => void }) {
  const readers = useLoad(
    () => ok(props.linkId ? api.api.links({ linkId: props.linkId }).readers.get() : api.api.files({ id: props.fileId }).readers.get()),
    [props.fileId, props.linkId],
    { failure: 'The readers could not be loaded' },
  )
  const [erasing, setErasing] = useState<ReaderTotalsDto | null>(null)
  const erase = async (reader: ReaderTotalsDto) => {
    setErasing(null)
    try {
      const { data } = await ok(api.api.readers.erase.post({ address: reader.reader }))
      notify('ok', `${reader.reader} erased from ${data.visits} visits and ${data.acceptances} acceptances`)
      await readers.reload()
      props.onErased()
    } catch (failure) {
      notify('error', errorText(failure, 'The reader was not erased'))
    }
  }

  if (readers.error) {
    return (
      <p class="form-error" role="alert">
        {readers.error}
      </p>
    )
  }
  if (readers.value === null) return <p>Loading the readers…</p>
  if (readers.value.length === 0) {
    return <p class="hint">No readers yet. Readers of links that ask for an email address appear here, with what they read.</p>
  }
  return (
    <>
      <div class="table-wrap">
        <table class="readers-table">
          <caption class="visually-hidden">Readers, most recent first</caption>
          <TableHead columns={['Reader', 'Visits', 'Pages read', 'Reading time', 'Downloads', 'Last visit']} unnamed="Erase" />
          <tbody>
            {readers.value.map((reader) => (
              <tr key={reader.reader}>
                <th scope="row">{reader.reader}</th>
                <td data-label="Visits">{reader.visits}</td>
                <td data-label="Pages read">{reader.pages}</td>
                <td data-label="Reading time">{reader.readingSeconds > 0 ? formatDuration(reader.readingSeconds) : 'none reported'}</td>
                <td data-label="Downloads">{reader.downloads}</td>
                <td data-label="Last visit">
                  <time dateTime={reader.lastVisitAt}>{formatDate(reader.lastVisitAt)}</time>
                </td>
                <td>
                  <button type="button" class="danger" onClick={() => setErasing(reader)}>
                    Erase<span class="visually-hidden"> {reader.reader}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={erasing !== null}
        title={`Erase ${erasing?.reader ?? 'this reader'}?`}
        confirm="Erase the address"
        danger
        onConfirm={() => erasing && erase(erasing)}
        onClose={() => setErasing(null)}
      >
        <p>
          The address goes from every visit and agreement acceptance of all your files, from your notifications, and from the watermarked
          copies made for it. The visits and acceptances stay, without it.
        </p>
      </ConfirmDialog>
    </>
  )
}
