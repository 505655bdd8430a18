import { useState } from 'preact/hooks'
import type { RoomDto } from '../../../src/routes/rooms/model'
import { textLength } from '../../../src/shared/file-shapes'
import { ROOM_LIMITS } from '../../../src/shared/room-shapes'
import { api, errorText, ok } from './api'
import { formatDate } from './format'
import { LinksPanel } from './links-panel'
import { RoomAddFiles } from './room-add-files'
import { RoomAnalytics } from './room-analytics'
import { RoomDocuments } from './room-documents'
import { useRoomItems } from './room-items'
import { ConfirmDialog, copyWithNotice, CountedField, notify } from './ui'
import { t } from './i18n'
import { useLoad } from './use-api'

/** The room's name and description, saved together with PUT (its documents are left as they are). */
function Details(props: { room: RoomDto; onSaved: (room: RoomDto) => void }) {
  const [name, setName] = useState(props.room.name)
  const [description, setDescription] = useState(props.room.description)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const changed = name !== props.room.name || description !== props.room.description
  const tooLong = textLength(name) > ROOM_LIMITS.name || textLength(description) > ROOM_LIMITS.description

  const save = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(api.api.rooms({ id: props.room.id }).put({ name: name.trim(), description }))
      props.onSaved(data)
      setName(data.name)
      notify('ok', t('common.saved'))
    } catch (failure) {
      setError(errorText(failure, t('common.changesNotSaved')))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form class="card" onSubmit={save} aria-labelledby="room-details-heading">
      <h2 id="room-details-heading">{t('file.details')}</h2>
      <CountedField id="room-edit-name" label={t('rooms.name')} value={name} max={ROOM_LIMITS.name} onInput={setName} />
      <CountedField
        id="room-edit-description"
        label={t('room.description')}
        value={description}
        max={ROOM_LIMITS.description}
        multiline
        onInput={setDescription}
      />
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || !changed || !name.trim() || tooLong}>
        {busy ? t('common.saving') : t('room.detailsSave')}
      </button>
    </form>
  )
}

/** One room: its link, its documents (order, folders, add, upload, remove), its details, its links, its analytics, delete. */
export function RoomPage(props: { id: string }) {
  const loaded = useLoad(() => ok(api.api.rooms({ id: props.id }).get()), [props.id], { failure: t('room.loadFailed') })
  const items = useRoomItems(loaded)
  const [deleting, setDeleting] = useState(false)
  const room = loaded.value

  if (loaded.error && !room) {
    return (
      <main>
        <p class="form-error" role="alert">
          {loaded.error}
        </p>
        <a href="#/rooms">{t('room.backToRooms')}</a>
      </main>
    )
  }
  if (!room) return <main aria-busy="true">{t('common.loading')}</main>

  const remove = async () => {
    setDeleting(false)
    try {
      await ok(api.api.rooms({ id: room.id }).delete())
      notify('ok', t('room.deleted', { name: room.name }))
      location.hash = '#/rooms'
    } catch (failure) {
      notify('error', errorText(failure, t('room.notDeleted')))
    }
  }

  return (
    <main class="room-page">
      <p>
        <a href="#/rooms">
          <span class="back-arrow">←</span> {t('rooms.back')}
        </a>
      </p>
      <h1>{room.name}</h1>
      <p class="sub">
        {t('room.facts', {
          documents: room.items.length,
          views: room.views,
          created: formatDate(room.createdAt),
          updated: formatDate(room.updatedAt),
        })}
      </p>

      <section class="card" aria-labelledby="room-share-heading">
        <h2 id="room-share-heading">{t('file.share')}</h2>
        <label for="room-link">{t('file.link')}</label>
        <div class="row">
          <input id="room-link" readOnly value={room.shareUrl} onFocus={(event) => event.currentTarget.select()} />
          <button type="button" onClick={() => copyWithNotice(room.shareUrl, 'link')}>
            {t('file.copyLink')}
          </button>
        </div>
        <p>
          <a href={room.shareUrl} target="_blank" rel="noopener">
            {t('room.open')}
          </a>
        </p>
      </section>

      <section class="card" aria-labelledby="room-documents-heading" aria-busy={items.saving}>
        <div class="page-head">
          <h2 id="room-documents-heading" tabIndex={-1}>
            {t('room.documents')}
          </h2>
          <span class="hint">{items.saving ? t('common.saving') : t('room.allSaved')}</span>
        </div>
        {items.error && (
          <p class="form-error" role="alert">
            {items.error}
          </p>
        )}
        <RoomDocuments items={room.items} onChange={items.change} />
      </section>

      <RoomAddFiles items={room.items} onChange={items.change} />

      <Details room={room} onSaved={loaded.set} />

      <LinksPanel of={{ roomId: room.id }} />

      <RoomAnalytics roomId={room.id} name={room.name} />

      <section class="card danger" aria-labelledby="room-delete-heading">
        <h2 id="room-delete-heading">{t('room.delete')}</h2>
        <p>{t('room.deleteText')}</p>
        <button type="button" class="danger" onClick={() => setDeleting(true)}>
          {t('room.deleteButton')}
        </button>
      </section>
      <ConfirmDialog
        open={deleting}
        title={t('room.confirm', { name: room.name })}
        confirm={t('room.delete')}
        danger
        onConfirm={remove}
        onClose={() => setDeleting(false)}
      >
        <p>{t('room.confirmText')}</p>
      </ConfirmDialog>
    </main>
  )
}
