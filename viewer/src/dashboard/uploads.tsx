import { useRef, useState } from 'preact/hooks'
import type { FileDto } from '../../../src/routes/files/model'
import { ApiError, errorText, sendPdf, type Transfer } from './api'
import { formatBytes } from './format'
import { notify } from './ui'
import { t } from './i18n'

export type UploadItem = {
  key: number
  name: string
  size: number
  sent: number
  state: 'waiting' | 'sending' | 'done' | 'failed' | 'cancelled'
  message: string
  transfer?: Transfer
}

let nextKey = 0
/** Uploads run one after another: the server also limits how many one user may send at once. */
export function useUploadQueue(onUploaded: (file: FileDto) => void) {
  const [items, setItems] = useState<UploadItem[]>([])
  const queue = useRef<{ item: UploadItem; file: File }[]>([])
  const running = useRef(false)

  const update = (key: number, change: Partial<UploadItem>) =>
    setItems((all) => all.map((item) => (item.key === key ? { ...item, ...change } : item)))

  const runNext = async () => {
    if (running.current) return
    const next = queue.current.shift()
    if (!next) return
    running.current = true
    const { item, file } = next
    const transfer = sendPdf('POST', '/files/upload', file, (sent, total) => update(item.key, { sent: Math.min(sent, total), size: total }))
    update(item.key, { state: 'sending', transfer })
    try {
      const uploaded = await transfer.promise
      update(item.key, { state: 'done', sent: item.size, message: t('upload.uploaded'), transfer: undefined })
      notify('ok', t('upload.uploadedNotice', { name: uploaded.filename }))
      onUploaded(uploaded)
    } catch (failure) {
      const cancelled = failure instanceof ApiError && failure.code === 'cancelled'
      update(item.key, {
        state: cancelled ? 'cancelled' : 'failed',
        message: errorText(failure, t('upload.failed')),
        transfer: undefined,
      })
      if (!cancelled) notify('error', t('upload.failedNotice', { name: file.name, why: errorText(failure, t('upload.failed')) }))
    } finally {
      running.current = false
      void runNext()
    }
  }

  const add = (files: Iterable<File>) => {
    const added: UploadItem[] = []
    for (const file of files) {
      const item: UploadItem = { key: nextKey++, name: file.name, size: file.size, sent: 0, state: 'waiting', message: t('upload.waiting') }
      queue.current.push({ item, file })
      added.push(item)
    }
    setItems((all) => [...all.filter((item) => item.state === 'sending' || item.state === 'waiting' || item.state === 'failed'), ...added])
    void runNext()
  }

  const cancel = (key: number) => {
    const waiting = queue.current.findIndex((entry) => entry.item.key === key)
    if (waiting >= 0) {
      queue.current.splice(waiting, 1)
      update(key, { state: 'cancelled', message: t('upload.cancelled') })
      return
    }
    items.find((item) => item.key === key)?.transfer?.cancel()
  }

  const clear = () => setItems((all) => all.filter((item) => item.state === 'sending' || item.state === 'waiting'))

  return { items, add, cancel, clear }
}

export function UploadList(props: { items: UploadItem[]; onCancel: (key: number) => void; onClear: () => void }) {
  if (props.items.length === 0) return null
  const finished = props.items.some((item) => item.state !== 'sending' && item.state !== 'waiting')
  return (
    <section class="uploads" aria-label={t('upload.list')}>
      <ul>
        {props.items.map((item) => {
          const percent = item.size > 0 ? Math.round((item.sent / item.size) * 100) : 0
          return (
            <li key={item.key} class={`upload upload-${item.state}`}>
              <span class="upload-name">{item.name}</span>
              <progress max={100} value={item.state === 'done' ? 100 : percent} aria-label={t('upload.progress', { name: item.name })} />
              <span class="upload-status">
                {item.state === 'sending'
                  ? t('upload.sent', { sent: formatBytes(item.sent), size: formatBytes(item.size), percent })
                  : item.message}
              </span>
              {(item.state === 'sending' || item.state === 'waiting') && (
                <button type="button" onClick={() => props.onCancel(item.key)} aria-label={t('upload.cancel', { name: item.name })}>
                  {t('common.cancel')}
                </button>
              )}
            </li>
          )
        })}
      </ul>
      {finished && (
        <button type="button" class="link" onClick={props.onClear}>
          {t('upload.clear')}
        </button>
      )}
    </section>
  )
}

/**
 * Accepts files dropped anywhere on the element that `handlers` are spread on; `over` is true while files are
 * dragged over it (for a hint). Every file is queued: the API refuses what is not a PDF, and the queue shows why.
 */
export function useDropZone(onFiles: (files: File[]) => void) {
  const [over, setOver] = useState(false)
  const handlers = {
    onDragOver: (event: DragEvent) => {
      if (!event.dataTransfer?.types.includes('Files')) return
      event.preventDefault()
      setOver(true)
    },
    onDragLeave: (event: DragEvent) => {
      if (event.currentTarget === event.target) setOver(false)
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault()
      setOver(false)
      const files = [...(event.dataTransfer?.files ?? [])]
      if (files.length > 0) onFiles(files)
    },
  }
  return { over, handlers }
}

/**
 * A button that opens the browser's chooser for PDFs, and the hidden input behind it (a file input cannot be
 * styled). The input is emptied after each choice, so that choosing the same file again is a new choice.
 */
export function PdfPicker(props: {
  label: string
  /** The input's own name for assistive technology and tests (it is hidden, but reachable by them). */
  chooserLabel: string
  testId: string
  onChosen: (files: File[]) => void
  disabled?: boolean
}) {
  const input = useRef<HTMLInputElement>(null)
  return (
    <>
      <button type="button" class="primary" disabled={props.disabled} onClick={() => input.current?.click()}>
        {props.label}
      </button>
      <input
        ref={input}
        type="file"
        accept="application/pdf,.pdf"
        multiple
        hidden
        aria-label={props.chooserLabel}
        data-testid={props.testId}
        onChange={(event) => {
          const chosen = [...(event.currentTarget.files ?? [])]
          event.currentTarget.value = ''
          if (chosen.length > 0) props.onChosen(chosen)
        }}
      />
    </>
  )
}
