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
  const loaded = useLoad(() => ok(api.api.files({ id: props.id }).get()), [props.id], { failure: t('file.loadFailed') })
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
      notify('ok', t('file.replaced', { name: chosen.name }))
    } catch (failure) {
      const message = errorText(failure, t('file.replaceFailed'))
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
        <a href="#/files">{t('file.backToFiles')}</a>
      </main>
    )
  }
  if (!file) return <main aria-busy="true">{t('common.loading')}</main>

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
      notify('ok', t('common.saved'))
    } catch (failure) {
      notify('error', errorText(failure, t('common.changesNotSaved')))
    } finally {
      setSaving(false)
    }
  }

  const toggle = async (field: 'allowDownload' | 'searchEngineVisible', value: boolean) => {
    loaded.set({ ...file, [field]: value })
    try {
      const { data } = await ok(api.api.files({ id: file.id }).put({ [field]: value }))
      loaded.set(data)
      notify('ok', t('file.toggled', { field: field === 'allowDownload' ? 'download' : 'search', value: value ? 'on' : 'off' }))
    } catch (failure) {
      loaded.set(file)
      notify('error', errorText(failure, t('common.notSaved')))
    }
  }

  const remove = async () => {
    try {
      await ok(api.api.files({ id: file.id }).delete())
      dialog.current?.close()
      notify('ok', t('file.deleted', { name }))
      location.hash = '#/files'
    } catch (failure) {
      notify('error', errorText(failure, t('file.notDeleted')))
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
        {t('file.facts', {
          size: formatBytes(file.fileSize),
          views: file.views,
          created: formatDate(file.createdAt),
          updated: formatDate(file.updatedAt),
        })}
      </p>

      <section class="card share" aria-labelledby="share-heading">
        <h2 id="share-heading">{t('file.share')}</h2>
        <div class="share-grid">
          <div>
            <label for="share-link">{t('file.link')}</label>
            <div class="row">
              <input id="share-link" readOnly value={file.shareUrl} onFocus={(event) => event.currentTarget.select()} />
              <button type="button" onClick={() => copyWithNotice(file.shareUrl, 'link')}>
                {t('file.copyLink')}
              </button>
            </div>
            <p>
              <a href={file.shareUrl} target="_blank" rel="noopener">
                {t('file.openViewer')}
              </a>
            </p>
            <Switch label={t('file.mayDownload')} checked={file.allowDownload} onChange={(value) => toggle('allowDownload', value)} />
            <Switch
              label={t('file.mayIndex')}
              checked={file.searchEngineVisible}
              onChange={(value) => toggle('searchEngineVisible', value)}
            />
          </div>
          <QrCode text={file.shareUrl} label={t('file.qr', { name })} />
          <figure>
            <img src={previewUrl} alt={t('file.previewAlt', { name })} width={300} height={158} />
            <figcaption>{t('file.previewCaption')}</figcaption>
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
        <h2 id="details-heading">{t('file.details')}</h2>
        <CountedField
          id="filename"
          label={t('file.filename')}
          value={draft.filename}
          max={TEXT_LIMITS.filename}
          onInput={(filename) => setDraft({ ...draft, filename })}
        />
        <CountedField
          id="title"
          label={t('file.title')}
          value={draft.title}
          max={TEXT_LIMITS.title}
          onInput={(title) => setDraft({ ...draft, title })}
        />
        <CountedField
          id="desc"
          label={t('file.desc')}
          value={draft.desc}
          max={TEXT_LIMITS.desc}
          multiline
          onInput={(desc) => setDraft({ ...draft, desc })}
        />
        <div class="row">
          <button type="submit" class="primary" disabled={!changed || tooLong || saving}>
            {saving ? t('common.saving') : t('common.save')}
          </button>
          {changed && (
            <button type="button" class="link" onClick={() => setDraft(null)}>
              {t('common.undo')}
            </button>
          )}
        </div>
      </form>

      {session.mayChange() && (
        <section class={`card replace${drop.over ? ' drop-over' : ''}`} aria-labelledby="replace-heading" {...drop.handlers}>
          <h2 id="replace-heading">{t('file.replace')}</h2>
          <p>{t('file.replaceText')}</p>
          {replacing ? (
            <div class="row">
              <progress max={replacing.total} value={replacing.sent} aria-label={t('file.replaceProgress')} />
              <span>{t('file.replaceSent', { sent: formatBytes(replacing.sent), size: formatBytes(replacing.total) })}</span>
              <button type="button" onClick={() => replacing.transfer.cancel()}>
                {t('common.cancel')}
              </button>
            </div>
          ) : (
            <button type="button" onClick={() => picker.current?.click()}>
              {t('file.choose')}
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
            aria-label={t('file.chooseReplace')}
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
          <h2 id="delete-heading">{t('file.delete')}</h2>
          <p>{t('file.deleteText')}</p>
          <button type="button" class="danger" onClick={() => dialog.current?.showModal()}>
            {t('file.deleteButton')}
          </button>
        </section>
      )}

      <dialog ref={dialog} aria-labelledby="confirm-heading">
        <h2 id="confirm-heading">{t('file.confirmDelete', { name })}</h2>
        <p>{t('file.confirmText')}</p>
        <div class="row">
          <button type="button" class="danger" onClick={remove}>
            {t('common.delete')}
          </button>
          <button type="button" onClick={() => dialog.current?.close()} autofocus>
            {t('common.keepIt')}
          </button>
        </div>
      </dialog>
    </main>
  )
}
