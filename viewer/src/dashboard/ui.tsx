import type { ComponentChildren } from 'preact'
import { useEffect, useId, useRef, useState } from 'preact/hooks'
import { textLength } from '../../../src/shared/file-shapes'
import { t } from './i18n'

type Notice = { id: number; kind: 'ok' | 'error'; text: string }
let nextId = 0
const noticeListeners = new Set<(notices: Notice[]) => void>()
let notices: Notice[] = []

/** Every action says how it went: a short message in a live region that screen readers announce. */
export function notify(kind: Notice['kind'], text: string) {
  const notice = { id: nextId++, kind, text }
  notices = [...notices.slice(-2), notice]
  for (const listener of noticeListeners) listener(notices)
  setTimeout(() => dismiss(notice.id), kind === 'error' ? 10_000 : 4_000)
}

function dismiss(id: number) {
  notices = notices.filter((notice) => notice.id !== id)
  for (const listener of noticeListeners) listener(notices)
}

export function Notices() {
  const [current, setCurrent] = useState(notices)
  useEffect(() => {
    noticeListeners.add(setCurrent)
    return () => void noticeListeners.delete(setCurrent)
  }, [])
  return (
    <div class="notices" role="status" aria-live="polite">
      {current.map((notice) => (
        <div key={notice.id} class={`notice notice-${notice.kind}`}>
          <span>{notice.text}</span>
          <button type="button" class="link" onClick={() => dismiss(notice.id)} aria-label={t('common.dismiss')}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}

export function Switch(props: {
  label: string
  checked: boolean
  disabled?: boolean
  onChange: (checked: boolean) => void
  compact?: boolean
}) {
  return (
    <label class={`switch${props.compact ? ' switch-compact' : ''}`}>
      <input
        type="checkbox"
        role="switch"
        aria-checked={props.checked}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
      />
      <span class="switch-track" aria-hidden="true" />
      <span class={props.compact ? 'visually-hidden' : ''}>{props.label}</span>
    </label>
  )
}

/** A text field with its limit shown as a counter (in code points, as the server counts). */
export function CountedField(props: {
  id: string
  label: string
  value: string
  max: number
  multiline?: boolean
  onInput: (value: string) => void
}) {
  const used = textLength(props.value)
  const over = used > props.max
  const counterId = `${props.id}-count`
  const common = {
    id: props.id,
    value: props.value,
    'aria-describedby': counterId,
    'aria-invalid': over,
    onInput: (event: Event) => props.onInput((event.currentTarget as HTMLInputElement).value),
  }
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.multiline ? <textarea rows={4} {...common} /> : <input type="text" {...common} />}
      <span id={counterId} class={`counter${over ? ' counter-over' : ''}`}>
        {used} / {props.max}
      </span>
    </div>
  )
}

export function Empty(props: { title: string; children: ComponentChildren }) {
  return (
    <div class="empty">
      <h2>{props.title}</h2>
      {props.children}
    </div>
  )
}

/** Copies text; falls back to a selected field where the Clipboard API is not allowed (plain http on a LAN). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.style.position = 'fixed'
    area.style.opacity = '0'
    document.body.append(area)
    area.select()
    const copied = document.execCommand('copy')
    area.remove()
    return copied
  }
}

/** What copyWithNotice copies, for its messages (`copy.done`, `copy.refused`). */
export type Copied = 'link' | 'token' | 'embed' | 'codes' | 'secret'

/** Copies `text` and says so, or says how to copy it by hand. */
export async function copyWithNotice(text: string, what: Copied) {
  if (await copyText(text)) notify('ok', t('copy.done', { what }))
  else notify('error', t('copy.refused', { what }))
}

/**
 * "Are you sure?" as a modal <dialog>: focus moves into it (to the safe choice), Escape or "Keep it" closes
 * it, and focus goes back to the button that opened it. Shown while `open` is true.
 */
export function ConfirmDialog(props: {
  open: boolean
  title: string
  children: ComponentChildren
  confirm: string
  /** The safe choice, focused first. */
  cancel?: string
  danger?: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const opener = useRef<Element | null>(null)
  const headingId = useId()
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (props.open && !element.open) {
      opener.current = document.activeElement
      element.showModal()
    } else if (!props.open && element.open) {
      element.close()
    }
  }, [props.open])
  return (
    <dialog
      ref={dialog}
      aria-labelledby={headingId}
      onClose={() => {
        if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus()
        props.onClose()
      }}
    >
      {props.open && (
        <>
          <h2 id={headingId}>{props.title}</h2>
          {props.children}
          <div class="row">
            <button type="button" class={props.danger ? 'danger' : 'primary'} onClick={props.onConfirm}>
              {props.confirm}
            </button>
            <button type="button" onClick={() => dialog.current?.close()} autofocus>
              {props.cancel ?? t('common.keepIt')}
            </button>
          </div>
        </>
      )}
    </dialog>
  )
}
