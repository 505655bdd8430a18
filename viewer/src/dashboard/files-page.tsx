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

const PAGE_SIZE = 25
const ORDER_LABELS: Record<ListOrder, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  name: 'Name, A–Z',
  views: 'Most viewed',
  size: 'Largest',
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
      failure: 'The files could not be loaded',
      moreFailure: 'More files could not be loaded',
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
        `${field === 'allowDownload' ? 'Download' : 'Search-engine visibility'} turned ${value ? 'on' : 'off'} for ${data.title || data.filename}`,
      )
    } catch (failure) {
      list.replace(file)
      notify('error', errorText(failure, 'The change was not saved'))
    }
  }

  return (
    <main class={`files${drop.over ? ' drop-over' : ''}`} {...(mayChange && drop.handlers)}>
      <div class="page-head">
        <h1>Files</h1>
        {mayChange && <PdfPicker label="Upload PDFs" chooserLabel="Choose PDFs to upload" testId="upload-input" onChosen={uploads.add} />}
      </div>
      {mayChange ? <p class="hint drop-hint">Drop PDFs anywhere on this page to upload them.</p> : <ViewerNote />}
      <UploadList items={uploads.items} onCancel={uploads.cancel} onClear={uploads.clear} />
      <div class="filters">
        <div class="field">
          <label for="search">Search by name or title</label>
          <input id="search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="order">Sort</label>
          <select id="order" value={order} onChange={(event) => setOrder(event.currentTarget.value as ListOrder)}>
            {LIST_ORDERS.map((value) => (
              <option key={value} value={value}>
                {ORDER_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {list.status === 'loading' && files.length === 0 && <p aria-busy="true">Loading…</p>}
      {list.status === 'failed' && (
        <p class="form-error">
          The files could not be loaded.{' '}
          <button type="button" class="link" onClick={list.reload}>
            Try again
          </button>
        </p>
      )}
      {list.status === 'ready' &&
        files.length === 0 &&
        (search.trim() ? (
          <Empty title="Nothing matches">
            <p>No file has “{search.trim()}” in its name or title.</p>
          </Empty>
        ) : (
          <Empty title="No PDFs yet">
            <p>
              Upload a PDF with the button above, or drop one on this page. You get a link to share right away; who may download it and
              whether search engines may show it is up to you, per file.
            </p>
          </Empty>
        ))}
      {files.length > 0 && (
        <div class="table-wrap">
          <table>
            <TableHead columns={['Title / file', 'Size', 'Views', 'Updated', 'Download', 'Search engines']} />
            <tbody>
              {files.map((file) => (
                <tr key={file.id}>
                  <td data-label="File">
                    <a href={`#/files/${file.id}`}>{file.title || file.filename}</a>
                    {file.title && <span class="sub">{file.filename}</span>}
                    <span class="sub">Created {formatDate(file.createdAt)}</span>
                  </td>
                  <td data-label="Size">{formatBytes(file.fileSize)}</td>
                  <td data-label="Views">{file.views}</td>
                  <td data-label="Updated">{formatDate(file.updatedAt)}</td>
                  <td data-label="Download">
                    <Switch
                      compact
                      label={`Allow download of ${file.title || file.filename}`}
                      checked={file.allowDownload}
                      onChange={(value) => toggle(file, 'allowDownload', value)}
                    />
                  </td>
                  <td data-label="Search engines">
                    <Switch
                      compact
                      label={`Let search engines index ${file.title || file.filename}`}
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
          {list.loadingMore ? 'Loading…' : 'Show more'}
        </button>
      )}
    </main>
  )
}
