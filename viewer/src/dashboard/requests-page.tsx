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
import { t } from './i18n'

/** The owner's rooms (the latest 100), for a request's room and "Add to a room". */
function useRooms() {
  return useLoad(() => ok(api.api.rooms.get({ query: { limit: 100 } })), [], { failure: t('req.roomsFailed') })
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
      setError(errorText(failure, t('req.notCreated')))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form class="request-create" onSubmit={submit} aria-labelledby="new-request-heading">
      <h2 id="new-request-heading">{t('req.new')}</h2>
      <div class="field">
        <label for="request-title">{t('req.title')}</label>
        <input
          id="request-title"
          required
          maxLength={REQUEST_LIMITS.title}
          value={title}
          onInput={(event) => setTitle(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="request-message">{t('req.message')}</label>
        <textarea
          id="request-message"
          rows={3}
          maxLength={REQUEST_LIMITS.message}
          value={message}
          onInput={(event) => setMessage(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="request-max-files">{t('req.maxFiles')}</label>
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
        <label for="request-room">{t('req.room')}</label>
        <select id="request-room" value={roomId} onChange={(event) => setRoomId(event.currentTarget.value)}>
          <option value="">{t('req.none')}</option>
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
        {busy ? t('rooms.creating') : t('req.create')}
      </button>
    </form>
  )
}

/** What arrived through one request: each file with who sent it; the file's own page shares, moves or deletes it. */
function Received(props: { request: RequestDto; rooms: RoomDto[] }) {
  const list = useLoad(() => ok(api.api.requests({ id: props.request.id }).files.get({ query: { limit: 100 } })), [props.request.id], {
    failure: t('req.arrivedFailed'),
  })
  const files: FileDto[] | null = list.value
  if (list.error)
    return (
      <p class="form-error" role="alert">
        {list.error}
      </p>
    )
  if (files === null) return <p>{t('common.loading')}</p>
  if (files.length === 0) return <p class="hint">{t('req.nothing')}</p>
  return (
    <table class="received">
      <caption class="visually-hidden">{t('req.receivedThrough', { title: props.request.title })}</caption>
      <TableHead
        columns={[
          t('files.col.file'),
          t('req.col.sender'),
          t('req.col.address'),
          t('req.col.note'),
          t('req.col.received'),
          props.rooms.length > 0 && t('req.col.room'),
        ]}
      />
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
      notify('ok', t('req.inRoom', { name: props.file.filename, room: room?.name ?? t('req.theRoom') }))
    } catch (failure) {
      notify('error', errorText(failure, t('req.notAdded')))
    } finally {
      setBusy(false)
    }
  }
  return (
    <select
      aria-label={t('req.addTo', { name: props.file.filename })}
      value=""
      disabled={busy}
      onChange={(event) => void add(event.currentTarget.value)}
    >
      <option value="">{t('req.addToRoom')}</option>
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
  const list = useLoad(() => ok(api.api.requests.get()), [], { failure: t('req.loadFailed') })
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
      notify('ok', t('req.toggled', { title: request.title, off: data.disabled ? 'yes' : 'no' }))
    } catch (failure) {
      notify('error', errorText(failure, t('req.notChanged')))
    }
  }
  const remove = async (request: RequestDto) => {
    setDeleting(null)
    try {
      await ok(api.api.requests({ id: request.id }).delete())
      setRequests((current) => current?.filter((each) => each.id !== request.id) ?? null)
      notify('ok', t('req.deleted', { title: request.title }))
      document.getElementById('requests-heading')?.focus()
    } catch (failure) {
      notify('error', errorText(failure, t('req.notDeleted')))
    }
  }

  return (
    <main class="requests">
      <h1>{t('title.requests')}</h1>
      <p>{t('req.intro')}</p>
      {session.mayChange() ? (
        <section class="card">
          <CreateForm
            rooms={rooms}
            onCreated={(request) => {
              setRequests((current) => [request, ...(current ?? [])])
              notify('ok', t('req.created', { title: request.title }))
            }}
          />
        </section>
      ) : (
        <ViewerNote />
      )}
      <section aria-labelledby="requests-heading">
        <h2 id="requests-heading" tabIndex={-1}>
          {t('req.yours')}
        </h2>
        {loadError && (
          <p class="form-error" role="alert">
            {loadError}
          </p>
        )}
        {requests === null && !loadError && <p>{t('req.loading')}</p>}
        {requests && requests.length === 0 && <p class="hint">{t('req.empty')}</p>}
        {requests && requests.length > 0 && (
          <ul class="request-list">
            {requests.map((request) => (
              <li key={request.id} class="card request" aria-labelledby={`request-${request.id}`}>
                <h3 id={`request-${request.id}`}>{request.title}</h3>
                <p class="sub">
                  {t('req.facts', {
                    state: t('req.state', { state: request.state }),
                    received: request.received,
                    max: request.maxFiles,
                    date: formatDate(request.createdAt),
                  })}
                  {request.roomId && ` · ${t('req.joins', { room: rooms.find((room) => room.id === request.roomId)?.name ?? '' })}`}
                </p>
                <div class="row wrap">
                  <input
                    readOnly
                    value={request.url}
                    aria-label={t('req.linkOf', { title: request.title })}
                    onFocus={(event) => event.currentTarget.select()}
                  />
                  <button type="button" onClick={() => copyWithNotice(request.url, 'link')}>
                    {t('req.copy')}
                    <span class="visually-hidden"> {t('req.ofTitle', { title: request.title })}</span>
                  </button>
                  <button type="button" onClick={() => toggle(request)}>
                    {request.disabled ? t('links.turnOn') : t('links.turnOff')}
                    <span class="visually-hidden"> {request.title}</span>
                  </button>
                  <button
                    type="button"
                    aria-expanded={open === request.id}
                    onClick={() => setOpen(open === request.id ? null : request.id)}
                  >
                    {t('req.arrived')}
                    <span class="visually-hidden"> {t('req.through', { title: request.title })}</span>
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(request)}>
                    {t('links.delete')}
                    <span class="visually-hidden"> {request.title}</span>
                  </button>
                </div>
                <details>
                  <summary>{t('links.qr')}</summary>
                  <QrCode text={request.url} label={t('req.qrOf', { title: request.title })} />
                </details>
                {open === request.id && <Received request={request} rooms={rooms} />}
              </li>
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={t('req.confirm', { title: deleting?.title ?? '' })}
        confirm={t('req.delete')}
        danger
        onConfirm={() => deleting && remove(deleting)}
        onClose={() => setDeleting(null)}
      >
        <p>{t('req.deleteText')}</p>
      </ConfirmDialog>
    </main>
  )
}
