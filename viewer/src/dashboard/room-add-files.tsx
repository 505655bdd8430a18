import { useState } from 'preact/hooks'
import type { FileDto } from '../../../src/routes/files/model'
import { ROOM_LIMITS } from '../../../src/shared/room-shapes'
import { api, ok } from './api'
import { formatBytes } from './format'
import { itemOf, type RoomItem } from './room-items'
import { PdfPicker, UploadList, useDropZone, useUploadQueue } from './uploads'
import { usePages } from './use-api'
import { t } from './i18n'

type Change = (compute: (items: RoomItem[]) => RoomItem[], done: string) => void

const PAGE_SIZE = 10

/**
 * Puts documents into the room: one of the owner's files, found by name, or PDFs uploaded straight into it
 * (through /api/files/upload, like the Files page, then added to the room's list). New documents go last, in
 * the folder typed here.
 */
export function RoomAddFiles(props: { items: RoomItem[]; onChange: Change }) {
  const [search, setSearch] = useState('')
  const [folder, setFolder] = useState('')
  const files = usePages(
    (cursor) => ok(api.api.files.get({ query: { limit: PAGE_SIZE, order: 'newest', q: search.trim() || undefined, cursor } })),
    [search],
    { delay: search ? 250 : 0, failure: t('roomAdd.filesFailed'), moreFailure: t('files.moreFailed') },
  )
  const inRoom = new Set(props.items.map((item) => item.fileId))
  const full = props.items.length >= ROOM_LIMITS.items

  const add = (file: FileDto) =>
    props.onChange(
      (list) => (list.some((item) => item.fileId === file.id) ? list : [...list, itemOf(file, folder.trim())]),
      t('roomAdd.added', { name: file.title || file.filename }),
    )
  const uploads = useUploadQueue((file) => {
    files.prepend(file)
    add(file)
  })
  const drop = useDropZone(uploads.add)

  return (
    <section class={`card room-add${drop.over ? ' drop-over' : ''}`} aria-labelledby="room-add-heading" {...drop.handlers}>
      <h2 id="room-add-heading">{t('roomAdd.heading')}</h2>
      <div class="row wrap room-add-controls">
        <div class="field">
          <label for="room-add-folder">{t('roomAdd.folder')}</label>
          <input
            id="room-add-folder"
            list="room-folders"
            placeholder={t('roomDocs.top')}
            maxLength={ROOM_LIMITS.folder * 2}
            value={folder}
            aria-describedby="room-add-folder-hint"
            onInput={(event) => setFolder(event.currentTarget.value)}
          />
          <span id="room-add-folder-hint" class="hint">
            {t('roomAdd.folderHint')}
          </span>
        </div>
        <PdfPicker
          label={t('roomAdd.upload')}
          chooserLabel={t('roomAdd.chooser')}
          testId="room-upload-input"
          disabled={full}
          onChosen={uploads.add}
        />
      </div>
      <p class="hint">{t('roomAdd.drop')}</p>
      <UploadList items={uploads.items} onCancel={uploads.cancel} onClear={uploads.clear} />
      {full && <p class="hint">{t('roomAdd.full', { max: ROOM_LIMITS.items })}</p>}
      <div class="field">
        <label for="room-add-search">{t('roomAdd.find')}</label>
        <input id="room-add-search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
      </div>
      {files.error && (
        <p class="form-error" role="alert">
          {files.error}
        </p>
      )}
      {files.status === 'loading' && files.items === null && <p aria-busy="true">{t('roomAdd.loading')}</p>}
      {files.status === 'ready' && files.items?.length === 0 && <p class="hint">{t('roomAdd.noMatch')}</p>}
      <ul class="room-pick">
        {(files.items ?? []).map((file) => {
          const name = file.title || file.filename
          return (
            <li key={file.id} class="room-pick-item">
              <span>
                {name} <span class="sub">{formatBytes(file.fileSize)}</span>
              </span>
              {inRoom.has(file.id) ? (
                <span class="hint">{t('roomAdd.inRoom')}</span>
              ) : (
                <button type="button" disabled={full} onClick={() => add(file)}>
                  {t('roomAdd.add')}
                  <span class="visually-hidden"> {name}</span>
                </button>
              )}
            </li>
          )
        })}
      </ul>
      {files.hasMore && (
        <button type="button" onClick={files.more} disabled={files.loadingMore}>
          {files.loadingMore ? t('common.loading') : t('roomAdd.more')}
        </button>
      )}
    </section>
  )
}
