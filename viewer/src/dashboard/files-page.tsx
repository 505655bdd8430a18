import { useState } from 'preact/hooks'
import type { FileDto } from '../../../src/routes/files/model'
import { LIST_ORDERS, type ListOrder } from '../../../src/shared/file-shapes'
import { api, errorText, ok } from './api'
import { formatBytes, formatDate } from './format'
import { session } from './session'
import { ViewerNote } from './team-switcher'
import { PdfPicker, UploadList, useDropZone, useUploadQueue } from './uploads'
import { Empty, notify, Switch } from './ui'
import { usePages } from './use-api'
import { TableHead } from './table-head'
import { type MessageKey, t } from './i18n'

const PAGE_SIZE = 25
const ORDER_LABELS: Record<ListOrder, MessageKey> = {
  newest: 'files.order.newest',
  oldest: 'files.order.oldest',
  name: 'files.order.name',
  views: 'files.order.views',
  size: 'files.order.size',
}

/** The owner's files: search, order, paging through the API's cursor, upload, and the two switches. */
export function FilesPage() {
  const [search, setSearch] = useState('')
  const [order, setOrder] = useState<ListOrder>(LIST_ORDERS[0])
  // The search is sent once the typing pauses for 250 ms; an answer to an older search is dropped.
  const list = usePages(
    (cursor) => ok(api.api.files.get({ query: { limit: PAGE_SIZE, order, q: search.trim() || undefined, cursor } })),
    [search, order],
    {
      delay: search ? 250 : 0,
      failure: t('files.loadFailed'),
      moreFailure: t('files.moreFailed'),
      onError: (message) => notify('error', message),
    },
  )
  const files = list.items ?? []

  // A new upload shows at the top until the list is sorted again (its place in another order is the server's call).
  const uploads = useUploadQueue(list.prepend)
  const drop = useDropZone(uploads.add)
  const mayChange = session.mayChange()

  const toggle = async (file: FileDto, field: 'allowDownload' | 'searchEngineVisible', value: boolean) => {
    list.replace({ ...file, [field]: value })
    try {
      const { data } = await ok(api.api.files({ id: file.id }).put({ [field]: value }))
      list.replace(data)
      notify(
        'ok',
        t('files.toggled', {
          field: field === 'allowDownload' ? 'download' : 'search',
          value: value ? 'on' : 'off',
          name: data.title || data.filename,
        }),
      )
    } catch (failure) {
      list.replace(file)
      notify('error', errorText(failure, t('common.notSaved')))
    }
  }

  return (
    <main class={`files${drop.over ? ' drop-over' : ''}`} {...(mayChange && drop.handlers)}>
      <div class="page-head">
        <h1>{t('title.files')}</h1>
        {mayChange && (
          <PdfPicker label={t('files.upload')} chooserLabel={t('files.chooser')} testId="upload-input" onChosen={uploads.add} />
        )}
      </div>
      {mayChange ? <p class="hint drop-hint">{t('files.dropHint')}</p> : <ViewerNote />}
      <UploadList items={uploads.items} onCancel={uploads.cancel} onClear={uploads.clear} />
      <div class="filters">
        <div class="field">
          <label for="search">{t('files.search')}</label>
          <input id="search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="order">{t('files.sort')}</label>
          <select id="order" value={order} onChange={(event) => setOrder(event.currentTarget.value as ListOrder)}>
            {LIST_ORDERS.map((value) => (
              <option key={value} value={value}>
                {t(ORDER_LABELS[value])}
              </option>
            ))}
          </select>
        </div>
      </div>
      {list.status === 'loading' && files.length === 0 && <p aria-busy="true">{t('common.loading')}</p>}
      {list.status === 'failed' && (
        <p class="form-error">
          {t('files.loadFailedRetry')}{' '}
          <button type="button" class="link" onClick={list.reload}>
            {t('common.tryAgain')}
          </button>
        </p>
      )}
      {list.status === 'ready' &&
        files.length === 0 &&
        (search.trim() ? (
          <Empty title={t('files.noMatch')}>
            <p>{t('files.noMatchText', { search: search.trim() })}</p>
          </Empty>
        ) : (
          <Empty title={t('files.empty')}>
            <p>{t('files.emptyText')}</p>
          </Empty>
        ))}
      {files.length > 0 && (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[
                t('files.col.title'),
                t('files.col.size'),
                t('files.col.views'),
                t('files.col.updated'),
                t('files.col.download'),
                t('files.col.search'),
              ]}
            />
            <tbody>
              {files.map((file) => (
                <tr key={file.id}>
                  <td data-label={t('files.col.file')}>
                    <a href={`#/files/${file.id}`}>{file.title || file.filename}</a>
                    {file.title && <span class="sub">{file.filename}</span>}
                    <span class="sub">{t('files.created', { date: formatDate(file.createdAt) })}</span>
                  </td>
                  <td data-label={t('files.col.size')}>{formatBytes(file.fileSize)}</td>
                  <td data-label={t('files.col.views')}>{file.views}</td>
                  <td data-label={t('files.col.updated')}>{formatDate(file.updatedAt)}</td>
                  <td data-label={t('files.col.download')}>
                    <Switch
                      compact
                      label={t('files.allowDownload', { name: file.title || file.filename })}
                      checked={file.allowDownload}
                      onChange={(value) => toggle(file, 'allowDownload', value)}
                    />
                  </td>
                  <td data-label={t('files.col.search')}>
                    <Switch
                      compact
                      label={t('files.allowSearch', { name: file.title || file.filename })}
                      checked={file.searchEngineVisible}
                      onChange={(value) => toggle(file, 'searchEngineVisible', value)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.hasMore && (
        <button type="button" onClick={list.more} disabled={list.loadingMore}>
          {list.loadingMore ? t('common.loading') : t('common.showMore')}
        </button>
      )}
    </main>
  )
}
