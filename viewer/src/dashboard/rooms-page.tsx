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
      notify('ok', `${data.name} created; add its documents`)
      location.hash = `#/rooms/${data.id}`
    } catch (failure) {
      setError(errorText(failure, 'The room was not created'))
      setBusy(false)
    }
  }

  const tooLong = textLength(name) > ROOM_LIMITS.name || textLength(description) > ROOM_LIMITS.description
  return (
    <form onSubmit={submit} aria-labelledby="new-room-heading">
      <h2 id="new-room-heading">New room</h2>
      <CountedField id="room-name" label="Name" value={name} max={ROOM_LIMITS.name} onInput={setName} />
      <CountedField
        id="room-description"
        label="Description (readers see it above the documents)"
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
        {busy ? 'Creating…' : 'Create the room'}
      </button>
    </form>
  )
}

const documentsText = (room: RoomDto) => `${room.items.length} ${room.items.length === 1 ? 'document' : 'documents'}`

/** The owner's rooms, newest first and paged, and the form that makes a new one. */
export function RoomsPage() {
  const list = usePages((cursor) => ok(api.api.rooms.get({ query: { limit: PAGE_SIZE, cursor } })), [], {
    failure: 'The rooms could not be loaded',
    moreFailure: 'More rooms could not be loaded',
  })
  const rooms = list.items ?? []

  return (
    <main class="rooms">
      <h1>Rooms</h1>
      <p>
        A room shares several PDFs through one link, in folders and in the order you choose. Readers pass its password, address or agreement
        once, then see an index of the documents.
      </p>
      {session.mayChange() ? (
        <section class="card">
          <CreateForm />
        </section>
      ) : (
        <ViewerNote />
      )}
      <section aria-labelledby="rooms-heading">
        <h2 id="rooms-heading">Your rooms</h2>
        {list.error && (
          <p class="form-error" role="alert">
            {list.error}{' '}
            <button type="button" class="link" onClick={list.reload}>
              Try again
            </button>
          </p>
        )}
        {list.status === 'loading' && rooms.length === 0 && <p aria-busy="true">Loading the rooms…</p>}
        {list.status === 'ready' && rooms.length === 0 && (
          <Empty title="No rooms yet">
            <p>Create one above, then add your PDFs to it.</p>
          </Empty>
        )}
        {rooms.length > 0 && (
          <div class="table-wrap">
            <table>
              <TableHead columns={['Room', 'Documents', 'Views', 'Updated']} />
              <tbody>
                {rooms.map((room) => (
                  <tr key={room.id}>
                    <td data-label="Room">
                      <a href={`#/rooms/${room.id}`}>{room.name}</a>
                      {room.description && <span class="sub">{room.description}</span>}
                    </td>
                    <td data-label="Documents">{documentsText(room)}</td>
                    <td data-label="Views">{room.views}</td>
                    <td data-label="Updated">{formatDate(room.updatedAt)}</td>
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
      </section>
    </main>
  )
}
