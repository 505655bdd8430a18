import { useEffect, useRef, useState } from 'preact/hooks'
import { ROOM_LIMITS } from '../../../src/shared/room-shapes'
import { formatBytes } from './format'
import { itemName, moved, type RoomItem } from './room-items'
import { t, tx } from './i18n'

type Change = (compute: (items: RoomItem[]) => RoomItem[], done: string) => void

/** A document's folder, typed; saved when the field is left or Enter is pressed, and only when it changed. */
function FolderField(props: { item: RoomItem; onSave: (folder: string) => void }) {
  const [draft, setDraft] = useState(props.item.folder)
  // The server's answer (or a refused save read again) shows its folder.
  useEffect(() => setDraft(props.item.folder), [props.item.folder])
  const save = () => {
    if (draft !== props.item.folder) props.onSave(draft)
  }
  const id = `room-folder-${props.item.fileId}`
  return (
    <div class="field room-folder">
      <label for={id} class="room-folder-label">
        {t('roomDocs.folder')}
        <span class="visually-hidden"> {t('roomDocs.folderOf', { name: itemName(props.item) })}</span>
      </label>
      <input
        id={id}
        list="room-folders"
        maxLength={ROOM_LIMITS.folder * 2}
        placeholder={t('roomDocs.top')}
        value={draft}
        aria-describedby="room-folder-hint"
        onInput={(event) => setDraft(event.currentTarget.value)}
        onChange={save}
        onKeyDown={(event) => {
          if (event.key === 'Enter') save()
        }}
      />
    </div>
  )
}

/**
 * The room's documents in the order readers see them: each one's folder, moved by dragging its handle or by
 * its Move up / Move down buttons (which keep the focus on the moved document), and taken out of the room.
 */
export function RoomDocuments(props: { items: RoomItem[]; onChange: Change }) {
  const { items, onChange } = props
  const dragged = useRef<number | null>(null)
  const [over, setOver] = useState<number | null>(null)
  /** The button to focus once the list is drawn again (an element id). */
  const focusNext = useRef<string | null>(null)
  useEffect(() => {
    if (!focusNext.current) return
    document.getElementById(focusNext.current)?.focus()
    focusNext.current = null
  })

  const move = (from: number, to: number, focus?: 'up' | 'down') => {
    if (to < 0 || to >= items.length || from === to) return
    const item = items[from]!
    if (focus) {
      // A button that is disabled at the end of the list cannot hold the focus: the other one takes it.
      const usable = focus === 'up' ? to > 0 : to < items.length - 1
      focusNext.current = `room-${usable ? focus : focus === 'up' ? 'down' : 'up'}-${item.fileId}`
    }
    onChange((list) => moved(list, from, to), t('roomDocs.moved', { name: itemName(item), place: to + 1, count: items.length }))
  }
  const remove = (index: number) => {
    const item = items[index]!
    const neighbour = items[index + 1] ?? items[index - 1]
    focusNext.current = neighbour ? `room-remove-${neighbour.fileId}` : 'room-documents-heading'
    onChange((list) => list.filter((each) => each.fileId !== item.fileId), t('roomDocs.removed', { name: itemName(item) }))
  }
  const setFolder = (item: RoomItem, folder: string) =>
    onChange(
      (list) => list.map((each) => (each.fileId === item.fileId ? { ...each, folder } : each)),
      folder ? t('roomDocs.inFolder', { name: itemName(item), folder }) : t('roomDocs.inTop', { name: itemName(item) }),
    )

  if (items.length === 0) return <p class="hint">{t('roomDocs.none')}</p>
  const folders = [...new Set(items.map((item) => item.folder).filter(Boolean))]
  return (
    <>
      <p id="room-folder-hint" class="hint">
        {tx('roomDocs.hint', { example: <code>Financials/2025</code> })}
      </p>
      <datalist id="room-folders">
        {folders.map((folder) => (
          <option key={folder} value={folder} />
        ))}
      </datalist>
      <ol class="room-items">
        {items.map((item, index) => {
          const name = itemName(item)
          return (
            <li
              key={item.fileId}
              class={`room-item${over === index ? ' drag-target' : ''}`}
              aria-labelledby={`room-item-${item.fileId}`}
              onDragOver={(event) => {
                if (dragged.current === null) return
                event.preventDefault()
                setOver(index)
              }}
              onDragLeave={() => setOver((current) => (current === index ? null : current))}
              onDrop={(event) => {
                event.preventDefault()
                const from = dragged.current
                dragged.current = null
                setOver(null)
                if (from !== null) move(from, index)
              }}
            >
              <span
                class="drag-handle"
                draggable
                aria-hidden="true"
                title={t('roomDocs.drag')}
                onDragStart={(event) => {
                  dragged.current = index
                  event.dataTransfer?.setData('text/plain', item.fileId)
                  if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move'
                  const row = event.currentTarget.closest('li')
                  if (row) event.dataTransfer?.setDragImage(row, 16, 16)
                }}
                onDragEnd={() => {
                  dragged.current = null
                  setOver(null)
                }}
              >
                ⠿
              </span>
              <div class="room-item-name">
                <a id={`room-item-${item.fileId}`} href={`#/files/${item.fileId}`}>
                  {name}
                </a>
                <span class="sub">
                  {item.title && `${item.filename} · `}
                  {formatBytes(item.fileSize)}
                  {item.pages !== null && ` · ${t('roomDocs.pages', { pages: item.pages })}`}
                </span>
              </div>
              <FolderField item={item} onSave={(folder) => setFolder(item, folder)} />
              <div class="row room-item-actions">
                <button type="button" id={`room-up-${item.fileId}`} disabled={index === 0} onClick={() => move(index, index - 1, 'up')}>
                  {t('roomDocs.up')}
                  <span class="visually-hidden"> {name}</span>
                </button>
                <button
                  type="button"
                  id={`room-down-${item.fileId}`}
                  disabled={index === items.length - 1}
                  onClick={() => move(index, index + 1, 'down')}
                >
                  {t('roomDocs.down')}
                  <span class="visually-hidden"> {name}</span>
                </button>
                <button type="button" id={`room-remove-${item.fileId}`} class="danger" onClick={() => remove(index)}>
                  {t('common.remove')}
                  <span class="visually-hidden"> {name}</span>
                </button>
              </div>
            </li>
          )
        })}
      </ol>
    </>
  )
}
