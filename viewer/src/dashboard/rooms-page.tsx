import { useState } from 'preact/hooks'
import type { RoomDto } from '../../../src/routes/rooms/model'
import { textLength } from '../../../src/shared/file-shapes'
import { ROOM_LIMITS } from '../../../src/shared/room-shapes'
import { api, errorText, ok } from './api'
import { formatDate } from './format'
import { CountedField, Empty, notify } from './ui'
import { usePages } from './use-api'
import { TableHead } from './table-head'
import { session } from './session'
import { ViewerNote } from './team-switcher'
import { t } from './i18n'

const PAGE_SIZE = 25

/** A new room: a name and a description; its documents are added on its own page, where it opens. */
function CreateForm() {
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(api.api.rooms.post({ name: name.trim(), description }))
      notify('ok', t('rooms.created', { name: data.name }))
      location.hash = `#/rooms/${data.id}`
    } catch (failure) {
      setError(errorText(failure, t('rooms.notCreated')))
      setBusy(false)
    }
  }

  const tooLong = textLength(name) > ROOM_LIMITS.name || textLength(description) > ROOM_LIMITS.description
  return (
    <form onSubmit={submit} aria-labelledby="new-room-heading">
      <h2 id="new-room-heading">{t('rooms.new')}</h2>
      <CountedField id="room-name" label={t('rooms.name')} value={name} max={ROOM_LIMITS.name} onInput={setName} />
      <CountedField
        id="room-description"
        label={t('rooms.description')}
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
      <button type="submit" class="primary" disabled={busy || !name.trim() || tooLong}>
        {busy ? t('rooms.creating') : t('rooms.create')}
      </button>
    </form>
  )
}

const documentsText = (room: RoomDto) => t('rooms.documents', { count: room.items.length })

/** The owner's rooms, newest first and paged, and the form that makes a new one. */
export function RoomsPage() {
  const list = usePages((cursor) => ok(api.api.rooms.get({ query: { limit: PAGE_SIZE, cursor } })), [], {
    failure: t('rooms.loadFailed'),
    moreFailure: t('rooms.moreFailed'),
  })
  const rooms = list.items ?? []

  return (
    <main class="rooms">
      <h1>{t('title.rooms')}</h1>
      <p>{t('rooms.intro')}</p>
      {session.mayChange() ? (
        <section class="card">
          <CreateForm />
        </section>
      ) : (
        <ViewerNote />
      )}
      <section aria-labelledby="rooms-heading">
        <h2 id="rooms-heading">{t('rooms.yours')}</h2>
        {list.error && (
          <p class="form-error" role="alert">
            {list.error}{' '}
            <button type="button" class="link" onClick={list.reload}>
              {t('common.tryAgain')}
            </button>
          </p>
        )}
        {list.status === 'loading' && rooms.length === 0 && <p aria-busy="true">{t('rooms.loading')}</p>}
        {list.status === 'ready' && rooms.length === 0 && (
          <Empty title={t('rooms.empty')}>
            <p>{t('rooms.emptyText')}</p>
          </Empty>
        )}
        {rooms.length > 0 && (
          <div class="table-wrap">
            <table>
              <TableHead columns={[t('rooms.col.room'), t('rooms.col.documents'), t('files.col.views'), t('files.col.updated')]} />
              <tbody>
                {rooms.map((room) => (
                  <tr key={room.id}>
                    <td data-label={t('rooms.col.room')}>
                      <a href={`#/rooms/${room.id}`}>{room.name}</a>
                      {room.description && <span class="sub">{room.description}</span>}
                    </td>
                    <td data-label={t('rooms.col.documents')}>{documentsText(room)}</td>
                    <td data-label={t('files.col.views')}>{room.views}</td>
                    <td data-label={t('files.col.updated')}>{formatDate(room.updatedAt)}</td>
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
      </section>
    </main>
  )
}
