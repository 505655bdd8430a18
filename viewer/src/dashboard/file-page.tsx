import { useRef, useState } from 'preact/hooks'
import type { FileDto } from '../../../src/routes/files/model'
import { TEXT_LIMITS, textLength } from '../../../src/shared/file-shapes'
import { AnalyticsPanel } from './analytics-panel'
import { ApiError, api, errorText, ok, sendPdf, type Transfer } from './api'
import { formatBytes, formatDate } from './format'
import { LinksPanel } from './links-panel'
import { QrCode } from './qr-code'
import { useDropZone } from './uploads'
import { session } from './session'
import { copyWithNotice, CountedField, notify, Switch } from './ui'
import { t } from './i18n'
import { useLoad } from './use-api'
import { VersionsPanel } from './versions-panel'

type Draft = { filename: string; title: string; desc: string }
const draftOf = (file: FileDto): Draft => ({ filename: file.filename, title: file.title, desc: file.desc })

/** One file: its default link (copy, QR, viewer, preview), all its links, its analytics, its texts and switches, replace, versions and delete. */
export function FilePage(props: { id: string }) {
  const loaded = useLoad(() => ok(api.api.files({ id: props.id }).get()), [props.id], { failure: 'The file could not be loaded' })
  const file = loaded.value
  const missing = loaded.error
  /** The Details form's texts once edited; null while they are the file's own. */
  const [edited, setDraft] = useState<Draft | null>(null)
  const [saving, setSaving] = useState(false)
  const [replacing, setReplacing] = useState<{ sent: number; total: number; transfer: Transfer } | null>(null)
  const [replaceError, setReplaceError] = useState('')
  const dialog = useRef<HTMLDialogElement>(null)
  const picker = useRef<HTMLInputElement>(null)

  /** The file as the server has it now (saved, replaced, restored): the form shows its texts again. */
  const show = (data: FileDto) => {
    loaded.set(data)
    setDraft(null)
  }

  const replace = async (chosen: File) => {
    setReplaceError('')
    const transfer = sendPdf('PUT', `/files/${props.id}`, chosen, (sent, total) => setReplacing({ sent, total, transfer }))
    setReplacing({ sent: 0, total: chosen.size, transfer })
    try {
      show(await transfer.promise)
      notify('ok', `The PDF was replaced with ${chosen.name}; the link stays the same`)
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : 'The replacement failed'
      if (!(failure instanceof ApiError && failure.code === 'cancelled')) {
        setReplaceError(message)
        notify('error', message)
      }
    } finally {
      setReplacing(null)
    }
  }
  const drop = useDropZone((files) => files[0] && replace(files[0]))

  if (missing) {
    return (
      <main>
        <p class="form-error">{missing}</p>
        <a href="#/files">Back to the files</a>
      </main>
    )
  }
  if (!file) return <main aria-busy="true">Loading…</main>

  const draft = edited ?? draftOf(file)
  const changed = draft.filename !== file.filename || draft.title !== file.title || draft.desc !== file.desc
  const tooLong = (Object.keys(TEXT_LIMITS) as (keyof Draft)[]).some((key) => textLength(draft[key]) > TEXT_LIMITS[key])
  const name = file.title || file.filename

  const save = async (event: Event) => {
    event.preventDefault()
    setSaving(true)
    try {
      const { data } = await ok(api.api.files({ id: file.id }).put(draft))
      show(data)
      notify('ok', 'Saved')
    } catch (failure) {
      notify('error', errorText(failure, 'The changes were not saved'))
    } finally {
      setSaving(false)
    }
  }

  const toggle = async (field: 'allowDownload' | 'searchEngineVisible', value: boolean) => {
    loaded.set({ ...file, [field]: value })
    try {
      const { data } = await ok(api.api.files({ id: file.id }).put({ [field]: value }))
      loaded.set(data)
      notify('ok', `${field === 'allowDownload' ? 'Download' : 'Search-engine visibility'} turned ${value ? 'on' : 'off'}`)
    } catch (failure) {
      loaded.set(file)
      notify('error', errorText(failure, 'The change was not saved'))
    }
  }

  const remove = async () => {
    try {
      await ok(api.api.files({ id: file.id }).delete())
      dialog.current?.close()
      notify('ok', `${name} was deleted`)
      location.hash = '#/files'
    } catch (failure) {
      notify('error', errorText(failure, 'The file was not deleted'))
    }
  }

  const previewUrl = `${new URL(file.shareUrl).pathname}/preview.png?v=${file.sha256.slice(0, 12)}`

  return (
    <main class="file-page">
      <p>
        <a href="#/files">
          <span class="back-arrow">←</span> {t('files.back')}
        </a>
      </p>
      <h1>{name}</h1>
      <p class="sub">
        {formatBytes(file.fileSize)} · {file.views} {file.views === 1 ? 'view' : 'views'} · created {formatDate(file.createdAt)} · updated{' '}
        {formatDate(file.updatedAt)}
      </p>

      <section class="card share" aria-labelledby="share-heading">
        <h2 id="share-heading">Share</h2>
        <div class="share-grid">
          <div>
            <label for="share-link">Link</label>
            <div class="row">
              <input id="share-link" readOnly value={file.shareUrl} onFocus={(event) => event.currentTarget.select()} />
              <button type="button" onClick={() => copyWithNotice(file.shareUrl, 'link')}>
                Copy link
              </button>
            </div>
            <p>
              <a href={file.shareUrl} target="_blank" rel="noopener">
                Open the viewer
              </a>
            </p>
            <Switch
              label="Readers may download the PDF"
              checked={file.allowDownload}
              onChange={(value) => toggle('allowDownload', value)}
            />
            <Switch
              label="Search engines may index the page"
              checked={file.searchEngineVisible}
              onChange={(value) => toggle('searchEngineVisible', value)}
            />
          </div>
          <QrCode text={file.shareUrl} label={`QR code of the link to ${name}`} />
          <figure>
            <img src={previewUrl} alt={`Link preview of ${name}: its first page`} width={300} height={158} />
            <figcaption>What chat apps and social sites show for the link</figcaption>
          </figure>
        </div>
      </section>

      <LinksPanel
        of={{ fileId: file.id }}
        revision={`${file.allowDownload} ${file.searchEngineVisible}`}
        onDefaultChanged={loaded.reload}
      />

      <AnalyticsPanel fileId={file.id} filename={file.filename} />

      <form class="card" onSubmit={save} aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        <CountedField
          id="filename"
          label="File name"
          value={draft.filename}
          max={TEXT_LIMITS.filename}
          onInput={(filename) => setDraft({ ...draft, filename })}
        />
        <CountedField
          id="title"
          label="Title (shown on the page; the file name when empty)"
          value={draft.title}
          max={TEXT_LIMITS.title}
          onInput={(title) => setDraft({ ...draft, title })}
        />
        <CountedField
          id="desc"
          label="Description (for link previews and search engines)"
          value={draft.desc}
          max={TEXT_LIMITS.desc}
          multiline
          onInput={(desc) => setDraft({ ...draft, desc })}
        />
        <div class="row">
          <button type="submit" class="primary" disabled={!changed || tooLong || saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          {changed && (
            <button type="button" class="link" onClick={() => setDraft(null)}>
              Undo changes
            </button>
          )}
        </div>
      </form>

      {session.mayChange() && (
        <section class={`card replace${drop.over ? ' drop-over' : ''}`} aria-labelledby="replace-heading" {...drop.handlers}>
          <h2 id="replace-heading">Replace the PDF</h2>
          <p>
            Drop a new PDF here or choose one. The links, views and settings stay; readers get the new pages, and the current PDF is kept
            under Versions.
          </p>
          {replacing ? (
            <div class="row">
              <progress max={replacing.total} value={replacing.sent} aria-label="Replacement upload progress" />
              <span>
                {formatBytes(replacing.sent)} of {formatBytes(replacing.total)}
              </span>
              <button type="button" onClick={() => replacing.transfer.cancel()}>
                Cancel
              </button>
            </div>
          ) : (
            <button type="button" onClick={() => picker.current?.click()}>
              Choose a PDF…
            </button>
          )}
          {replaceError && (
            <p class="form-error" role="alert">
              {replaceError}
            </p>
          )}
          <input
            ref={picker}
            type="file"
            accept="application/pdf,.pdf"
            hidden
            aria-label="Choose a PDF to replace this one"
            data-testid="replace-input"
            onChange={(event) => {
              const chosen = event.currentTarget.files?.[0]
              event.currentTarget.value = ''
              if (chosen) void replace(chosen)
            }}
          />
        </section>
      )}

      <VersionsPanel fileId={file.id} revision={`${file.sha256} ${file.updatedAt}`} onRestored={show} />

      {session.mayChange() && (
        <section class="card danger" aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete</h2>
          <p>The PDF, its versions, its previews and all its links are gone for good.</p>
          <button type="button" class="danger" onClick={() => dialog.current?.showModal()}>
            Delete this file…
          </button>
        </section>
      )}

      <dialog ref={dialog} aria-labelledby="confirm-heading">
        <h2 id="confirm-heading">Delete {name}?</h2>
        <p>The link stops working at once. This cannot be undone.</p>
        <div class="row">
          <button type="button" class="danger" onClick={remove}>
            Delete
          </button>
          <button type="button" onClick={() => dialog.current?.close()} autofocus>
            Keep it
          </button>
        </div>
      </dialog>
    </main>
  )
}
