import { useState } from 'preact/hooks'
import type { FileDto } from '../../../src/routes/files/model'
import type { RequestDto } from '../../../src/routes/requests/model'
import type { RoomDto } from '../../../src/routes/rooms/model'
import { REQUEST_LIMITS } from '../../../src/shared/request-shapes'
import { api, errorText, ok } from './api'
import { formatBytes, formatDate } from './format'
import { QrCode } from './qr-code'
import { ConfirmDialog, copyWithNotice, notify } from './ui'
import { useLoad } from './use-api'
import { TableHead } from './table-head'
import { session } from './session'
import { ViewerNote } from './team-switcher'

const STATE_TEXT: Record<RequestDto['state'], string> = {
  active: 'open',
  disabled: 'turned off',
  expired: 'expired',
  full: 'full',
}

/** The owner's rooms (the latest 100), for a request's room and "Add to a room". */
function useRooms() {
  return useLoad(() => ok(api.api.rooms.get({ query: { limit: 100 } })), [], { failure: 'Your rooms could not be loaded' })
}

/**
 * Adds a file to a room, last, at its top folder: the room's list as it is now with the file after it (a file
 * already in the room stays where it is).
 */
async function addToRoom(roomId: string, fileId: string): Promise<RoomDto> {
  const { data: room } = await ok(api.api.rooms({ id: roomId }).get())
  if (room.items.some((item) => item.fileId === fileId)) return room
  const items = [...room.items.map(({ fileId, folder }) => ({ fileId, folder })), { fileId, folder: '' }]
  return (await ok(api.api.rooms({ id: roomId }).put({ items }))).data
}

function CreateForm(props: { onCreated: (request: RequestDto) => void; rooms: RoomDto[] }) {
  const [title, setTitle] = useState('')
  const [roomId, setRoomId] = useState('')
  const [message, setMessage] = useState('')
  const [maxFiles, setMaxFiles] = useState(String(REQUEST_LIMITS.defaultMaxFiles))
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(
        api.api.requests.post({ title: title.trim(), message, maxFiles: Number(maxFiles), roomId: roomId === '' ? null : roomId }),
      )
      setTitle('')
      setMessage('')
      props.onCreated(data)
    } catch (failure) {
      setError(errorText(failure, 'The request was not created'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form class="request-create" onSubmit={submit} aria-labelledby="new-request-heading">
      <h2 id="new-request-heading">New file request</h2>
      <div class="field">
        <label for="request-title">Title</label>
        <input
          id="request-title"
          required
          maxLength={REQUEST_LIMITS.title}
          value={title}
          onInput={(event) => setTitle(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="request-message">Message to the senders</label>
        <textarea
          id="request-message"
          rows={3}
          maxLength={REQUEST_LIMITS.message}
          value={message}
          onInput={(event) => setMessage(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="request-max-files">Files it takes in all</label>
        <input
          id="request-max-files"
          type="number"
          min={1}
          max={REQUEST_LIMITS.maxFiles}
          required
          value={maxFiles}
          onInput={(event) => setMaxFiles(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="request-room">Room the files join</label>
        <select id="request-room" value={roomId} onChange={(event) => setRoomId(event.currentTarget.value)}>
          <option value="">None</option>
          {props.rooms.map((room) => (
            <option key={room.id} value={room.id}>
              {room.name}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || !title.trim()}>
        {busy ? 'Creating…' : 'Create the request'}
      </button>
    </form>
  )
}

/** What arrived through one request: each file with who sent it; the file's own page shares, moves or deletes it. */
function Received(props: { request: RequestDto; rooms: RoomDto[] }) {
  const list = useLoad(() => ok(api.api.requests({ id: props.request.id }).files.get({ query: { limit: 100 } })), [props.request.id], {
    failure: 'What arrived could not be loaded',
  })
  const files: FileDto[] | null = list.value
  if (list.error)
    return (
      <p class="form-error" role="alert">
        {list.error}
      </p>
    )
  if (files === null) return <p>Loading…</p>
  if (files.length === 0) return <p class="hint">Nothing has arrived yet.</p>
  return (
    <table class="received">
      <caption class="visually-hidden">Files received through {props.request.title}</caption>
      <TableHead columns={['File', 'Sender', 'Address', 'Note', 'Received', props.rooms.length > 0 && 'Room']} />
      <tbody>
        {files.map((file) => (
          <tr key={file.id}>
            <td>
              <a href={`#/files/${file.id}`}>{file.filename}</a> <span class="sub">{formatBytes(file.fileSize)}</span>
            </td>
            <td>{file.source?.name ?? '—'}</td>
            <td>{file.source?.email ?? '—'}</td>
            <td>{file.source?.note ?? '—'}</td>
            <td>{formatDate(file.createdAt)}</td>
            {props.rooms.length > 0 && (
              <td>
                <AddToRoom file={file} rooms={props.rooms} />
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** A room chosen for one received file: it joins the room, last. */
function AddToRoom(props: { file: FileDto; rooms: RoomDto[] }) {
  const [busy, setBusy] = useState(false)
  const add = async (roomId: string) => {
    if (roomId === '') return
    const room = props.rooms.find((one) => one.id === roomId)
    setBusy(true)
    try {
      await addToRoom(roomId, props.file.id)
      notify('ok', `${props.file.filename} is in ${room?.name ?? 'the room'}`)
    } catch (failure) {
      notify('error', errorText(failure, 'The file was not added to the room'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <select
      aria-label={`Add ${props.file.filename} to a room`}
      value=""
      disabled={busy}
      onChange={(event) => void add(event.currentTarget.value)}
    >
      <option value="">Add to a room…</option>
      {props.rooms.map((room) => (
        <option key={room.id} value={room.id}>
          {room.name}
        </option>
      ))}
    </select>
  )
}

/** The owner's file requests: create one, copy its link or show its QR code, turn it off or on, see what arrived. */
export function RequestsPage() {
  const list = useLoad(() => ok(api.api.requests.get()), [], { failure: 'The requests could not be loaded' })
  const rooms = useRooms().value ?? []
  const { value: requests, error: loadError, set: setRequests } = list
  const [open, setOpen] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<RequestDto | null>(null)

  const replace = (changed: RequestDto) =>
    setRequests((current) => current?.map((each) => (each.id === changed.id ? changed : each)) ?? null)
  const toggle = async (request: RequestDto) => {
    try {
      const { data } = await ok(api.api.requests({ id: request.id }).patch({ disabled: !request.disabled }))
      replace(data)
      notify('ok', `${request.title}: ${data.disabled ? 'turned off' : 'open again'}`)
    } catch (failure) {
      notify('error', errorText(failure, 'The request was not changed'))
    }
  }
  const remove = async (request: RequestDto) => {
    setDeleting(null)
    try {
      await ok(api.api.requests({ id: request.id }).delete())
      setRequests((current) => current?.filter((each) => each.id !== request.id) ?? null)
      notify('ok', `${request.title} deleted; the files it received stay yours`)
      document.getElementById('requests-heading')?.focus()
    } catch (failure) {
      notify('error', errorText(failure, 'The request was not deleted'))
    }
  }

  return (
    <main class="requests">
      <h1>File requests</h1>
      <p>
        A page where others send you PDFs. What arrives is yours, private until you share it: its link starts turned off. Only the name you
        choose to show appears on the page.
      </p>
      {session.mayChange() ? (
        <section class="card">
          <CreateForm
            rooms={rooms}
            onCreated={(request) => {
              setRequests((current) => [request, ...(current ?? [])])
              notify('ok', `${request.title} created; copy its link to send it`)
            }}
          />
        </section>
      ) : (
        <ViewerNote />
      )}
      <section aria-labelledby="requests-heading">
        <h2 id="requests-heading" tabIndex={-1}>
          Your requests
        </h2>
        {loadError && (
          <p class="form-error" role="alert">
            {loadError}
          </p>
        )}
        {requests === null && !loadError && <p>Loading the requests…</p>}
        {requests && requests.length === 0 && <p class="hint">No requests yet. Create one above and send its link.</p>}
        {requests && requests.length > 0 && (
          <ul class="request-list">
            {requests.map((request) => (
              <li key={request.id} class="card request" aria-labelledby={`request-${request.id}`}>
                <h3 id={`request-${request.id}`}>{request.title}</h3>
                <p class="sub">
                  {STATE_TEXT[request.state]} · {request.received} of {request.maxFiles} files received · created{' '}
                  {formatDate(request.createdAt)}
                  {request.roomId && ` · files join the room ${rooms.find((room) => room.id === request.roomId)?.name ?? ''}`}
                </p>
                <div class="row wrap">
                  <input
                    readOnly
                    value={request.url}
                    aria-label={`Link of ${request.title}`}
                    onFocus={(event) => event.currentTarget.select()}
                  />
                  <button type="button" onClick={() => copyWithNotice(request.url, 'link')}>
                    Copy the link<span class="visually-hidden"> of {request.title}</span>
                  </button>
                  <button type="button" onClick={() => toggle(request)}>
                    {request.disabled ? 'Turn on' : 'Turn off'}
                    <span class="visually-hidden"> {request.title}</span>
                  </button>
                  <button
                    type="button"
                    aria-expanded={open === request.id}
                    onClick={() => setOpen(open === request.id ? null : request.id)}
                  >
                    What arrived<span class="visually-hidden"> through {request.title}</span>
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(request)}>
                    Delete…<span class="visually-hidden"> {request.title}</span>
                  </button>
                </div>
                <details>
                  <summary>QR code</summary>
                  <QrCode text={request.url} label={`QR code of the link of ${request.title}`} />
                </details>
                {open === request.id && <Received request={request} rooms={rooms} />}
              </li>
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the request ${deleting?.title ?? ''}?`}
        confirm="Delete the request"
        danger
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(null)}
      >
        <p>Its page stops taking files at once. The files it received stay yours.</p>
      </ConfirmDialog>
    </main>
  )
}
