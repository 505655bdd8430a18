import { useEffect, useRef, useState } from 'preact/hooks'
import { textLength } from '../../../src/shared/file-shapes'
import type { LinkBody, LinkDto } from '../../../src/routes/links/model'
import { LINK_LIMITS } from '../../../src/shared/link-shapes'
import { errorText } from './api'
import { fromLocalInput, toLocalInput } from './format'
import { EmbedField, embedFieldOf, embedInputOf } from './link-embed'
import { LinkReadersFields, type ReaderFields, readerFieldsOf, readerInputOf } from './link-readers-fields'
import { CountedField, Switch } from './ui'
import { t, tx } from './i18n'

/** The form's fields as typed: strings for the inputs, so "no limit" and "no expiry" are simply empty. */
type Fields = {
  label: string
  password: string
  removePassword: boolean
  expiry: string
  maxViews: string
  allowDownload: boolean
  searchEngineVisible: boolean
  notify: LinkDto['notify']
  embed: string
  watermark: string
} & ReaderFields

const fieldsOf = (link?: LinkDto): Fields => ({
  label: link?.label ?? '',
  password: '',
  removePassword: false,
  expiry: link?.expiresAt ? toLocalInput(link.expiresAt) : '',
  maxViews: link?.maxViews == null ? '' : String(link.maxViews),
  allowDownload: link?.allowDownload ?? true,
  searchEngineVisible: link?.searchEngineVisible ?? false,
  notify: link?.notify ?? 'on',
  embed: embedFieldOf(link),
  watermark: link?.watermark ?? '',
  ...readerFieldsOf(link),
})

/** "" → null (no limit); anything else goes as typed, and the server says what is wrong with it. */
const viewsOf = (text: string): number | null => (text.trim() === '' ? null : Number(text))

/**
 * What to send. A new link: only what was filled in (the server's defaults do the rest, including the
 * instance's default expiry). An edit: only what changed, since PATCH leaves omitted fields alone; an
 * emptied expiry or view limit is sent as null, which clears it.
 */
function inputOf(fields: Fields, link?: LinkDto): LinkBody {
  const input: LinkBody = {}
  const start = fieldsOf(link)
  if (fields.label !== start.label) input.label = fields.label === '' ? null : fields.label
  if (fields.password !== '') input.password = fields.password
  else if (fields.removePassword) input.password = null
  if (fields.expiry !== start.expiry) input.expiresAt = fromLocalInput(fields.expiry)
  if (fields.maxViews !== start.maxViews) input.maxViews = viewsOf(fields.maxViews)
  if (fields.allowDownload !== start.allowDownload) input.allowDownload = fields.allowDownload
  if (fields.searchEngineVisible !== start.searchEngineVisible) input.searchEngineVisible = fields.searchEngineVisible
  if (fields.notify !== start.notify) input.notify = fields.notify
  if (fields.watermark.trim() !== start.watermark) input.watermark = fields.watermark.trim() === '' ? null : fields.watermark.trim()
  return { ...input, ...readerInputOf(fields, start), ...embedInputOf(fields.embed, start.embed) }
}

/**
 * A link's settings, for a new link (no `link`) and for editing one. The server decides what is valid (its
 * instance policy may require a password or cap the expiry): its message is shown next to the form.
 */
export function LinkForm(props: {
  /** Unique per form on the page, for the fields' ids. */
  idPrefix: string
  link?: LinkDto
  submitLabel: string
  onSubmit: (input: LinkBody) => Promise<void>
  onCancel: () => void
}) {
  const [fields, setFields] = useState(fieldsOf(props.link))
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const id = (name: string) => `${props.idPrefix}-${name}`
  const set = (change: Partial<Fields>) => setFields({ ...fields, ...change })

  // Opened by a button: the first field takes the focus.
  useEffect(() => form.current?.querySelector<HTMLInputElement>('input')?.focus(), [])

  const submit = async (event: Event) => {
    event.preventDefault()
    setError('')
    setBusy(true)
    try {
      await props.onSubmit(inputOf(fields, props.link))
    } catch (failure) {
      setError(errorText(failure, t('linkForm.notSaved')))
    } finally {
      setBusy(false)
    }
  }

  const hasPassword = props.link?.hasPassword ?? false
  return (
    <form ref={form} class="link-form" onSubmit={submit} aria-describedby={error ? id('error') : undefined}>
      <CountedField
        id={id('label')}
        label={t('linkForm.label')}
        value={fields.label}
        max={LINK_LIMITS.label}
        onInput={(label) => set({ label })}
      />
      <div class="link-form-grid">
        <div class="field">
          <label for={id('password')}>{hasPassword ? t('linkForm.newPassword') : t('linkForm.password')}</label>
          <input
            id={id('password')}
            type="password"
            autocomplete="new-password"
            value={fields.password}
            disabled={fields.removePassword}
            aria-describedby={id('password-hint')}
            onInput={(event) => set({ password: event.currentTarget.value })}
          />
          <span id={id('password-hint')} class="hint">
            {t('linkForm.passwordHint', { has: hasPassword ? 'yes' : 'no', min: LINK_LIMITS.passwordMin, max: LINK_LIMITS.passwordMax })}
          </span>
          {hasPassword && (
            <label class="check">
              <input
                type="checkbox"
                checked={fields.removePassword}
                onChange={(event) => set({ removePassword: event.currentTarget.checked, password: '' })}
              />
              {t('linkForm.removePassword')}
            </label>
          )}
        </div>
        <div class="field">
          <label for={id('expiry')}>{t('linkForm.expires')}</label>
          <input
            id={id('expiry')}
            type="datetime-local"
            value={fields.expiry}
            aria-describedby={id('expiry-hint')}
            onInput={(event) => set({ expiry: event.currentTarget.value })}
          />
          <span id={id('expiry-hint')} class="hint">
            {t('linkForm.expiryHint', { edit: props.link ? 'yes' : 'no' })}
          </span>
        </div>
        <div class="field">
          <label for={id('max-views')}>{t('linkForm.maxViews')}</label>
          <input
            id={id('max-views')}
            type="number"
            inputMode="numeric"
            min={1}
            max={LINK_LIMITS.maxViews}
            step={1}
            value={fields.maxViews}
            aria-describedby={id('max-views-hint')}
            onInput={(event) => set({ maxViews: event.currentTarget.value })}
          />
          <span id={id('max-views-hint')} class="hint">
            {t('linkForm.maxViewsHint')}
          </span>
        </div>
      </div>
      <Switch label={t('file.mayDownload')} checked={fields.allowDownload} onChange={(allowDownload) => set({ allowDownload })} />
      <CountedField
        id={id('watermark')}
        label={t('linkForm.watermark')}
        value={fields.watermark}
        max={LINK_LIMITS.watermark}
        onInput={(watermark) => set({ watermark })}
      />
      <span id={id('watermark-hint')} class="hint">
        {t('linkForm.watermarkHint', { email: '{email}', date: '{date}', visit: '{visit}', label: '{label}' })}
      </span>
      <Switch
        label={t('file.mayIndex')}
        checked={fields.searchEngineVisible}
        onChange={(searchEngineVisible) => set({ searchEngineVisible })}
      />
      <LinkReadersFields id={id} fields={fields} set={set} />
      <div class="field">
        <label for={id('notify')}>{t('linkForm.notify')}</label>
        <select
          id={id('notify')}
          value={fields.notify}
          aria-describedby={id('notify-hint')}
          onChange={(event) => set({ notify: event.currentTarget.value as LinkDto['notify'] })}
        >
          <option value="on">{t('linkForm.notify.on')}</option>
          <option value="hourly">{t('linkForm.notify.hourly')}</option>
          <option value="daily">{t('linkForm.notify.daily')}</option>
          <option value="off">{t('linkForm.notify.off')}</option>
        </select>
        <span id={id('notify-hint')} class="hint">
          {tx('linkForm.notifyHint', { channels: <a href="#/notifications">{t('linkForm.channels')}</a> })}
        </span>
      </div>
      <EmbedField id={id} value={fields.embed} onInput={(embed) => set({ embed })} />
      {error && (
        <p id={id('error')} class="form-error" role="alert">
          {error}
        </p>
      )}
      <div class="row">
        <button
          type="submit"
          class="primary"
          disabled={
            busy ||
            textLength(fields.label) > LINK_LIMITS.label ||
            textLength(fields.agreement) > LINK_LIMITS.agreement ||
            textLength(fields.watermark) > LINK_LIMITS.watermark
          }
        >
          {busy ? t('common.saving') : props.submitLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  )
}
