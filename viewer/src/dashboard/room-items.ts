/**
 * A room's documents as the page edits them: every change (add, remove, move, folder) shows at once and is
 * saved with `PUT /api/rooms/:id {items}`, which replaces the whole ordered list. The saves go one after
 * another, each with the list as it was after its change, so the last change is the one the server keeps; once
 * none is left on its way, the server's answer (titles, sizes, pages as they are now) replaces what is shown.
 * A refused save is said in the page and the room is read again, so what is shown is what is saved.
 */
import { useRef, useState } from 'preact/hooks'
import type { FileDto } from '../../../src/routes/files/model'
import type { RoomDto } from '../../../src/routes/rooms/model'
import { api, errorText, ok } from './api'
import { notify } from './ui'
import type { Loaded } from './use-api'
import { t } from './i18n'

export type RoomItem = RoomDto['items'][number]

/** The list with the item at `from` put at `to` (both indexes of the list as it is). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list]
  const [item] = next.splice(from, 1)
  if (item !== undefined) next.splice(to, 0, item)
  return next
}

/** A file just uploaded or picked, as a room's item until the server's answer says more (its pages). */
export const itemOf = (file: FileDto, folder: string): RoomItem => ({
  fileId: file.id,
  folder,
  title: file.title,
  filename: file.filename,
  fileSize: file.fileSize,
  pages: null,
})

export const itemName = (item: RoomItem) => item.title || item.filename

export function useRoomItems(room: Loaded<RoomDto>) {
  const [saving, setSaving] = useState(0)
  const [error, setError] = useState('')
  const pending = useRef(0)
  const queue = useRef(Promise.resolve())
  /** The list the next change starts from: the last change's, or the server's when none is on its way. */
  const latest = useRef<RoomItem[]>([])
  if (pending.current === 0 && room.value) latest.current = room.value.items

  const settle = (by: number) => {
    pending.current += by
    setSaving(pending.current)
  }

  /** Applies `change` to the list now, saves it, and says `done` once the server kept it. */
  const change = (compute: (items: RoomItem[]) => RoomItem[], done: string) => {
    const id = room.value?.id
    if (!id) return
    const items = compute(latest.current)
    latest.current = items
    // Through an updater: an upload that ends later calls this from an older render.
    room.set((value) => value && { ...value, items })
    settle(1)
    queue.current = queue.current.then(async () => {
      try {
        const body = { items: items.map(({ fileId, folder }) => ({ fileId, folder })) }
        const { data } = await ok(api.api.rooms({ id }).put(body))
        settle(-1)
        if (pending.current === 0) room.set(data)
        setError('')
        notify('ok', done)
      } catch (failure) {
        settle(-1)
        const message = errorText(failure, t('room.notSaved'))
        setError(message)
        notify('error', message)
        if (pending.current === 0) await room.reload()
      }
    })
  }

  return { change, saving: saving > 0, error }
}
