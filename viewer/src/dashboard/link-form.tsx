import { useEffect, useRef, useState } from 'preact/hooks'
import { textLength } from '../../../src/shared/file-shapes'
import type { LinkBody, LinkDto } from '../../../src/routes/links/model'
import { LINK_LIMITS } from '../../../src/shared/link-shapes'
import { errorText } from './api'
import { fromLocalInput, toLocalInput } from './format'
import { EmbedField, embedFieldOf, embedInputOf } from './link-embed'
import { LinkReadersFields, type ReaderFields, readerFieldsOf, readerInputOf } from './link-readers-fields'
import { CountedField, Switch } from './ui'

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
      setError(errorText(failure, 'The link was not saved'))
    } finally {
      setBusy(false)
    }
  }

  const hasPassword = props.link?.hasPassword ?? false
  return (
    <form ref={form} class="link-form" onSubmit={submit} aria-describedby={error ? id('error') : undefined}>
      <CountedField
        id={id('label')}
        label="Label (only you see it)"
        value={fields.label}
        max={LINK_LIMITS.label}
        onInput={(label) => set({ label })}
      />
      <div class="link-form-grid">
        <div class="field">
          <label for={id('password')}>{hasPassword ? 'New password' : 'Password'}</label>
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
            {hasPassword ? 'Empty: the password stays. ' : 'Empty: no password. '}
            {LINK_LIMITS.passwordMin} to {LINK_LIMITS.passwordMax} characters.
          </span>
          {hasPassword && (
            <label class="check">
              <input
                type="checkbox"
                checked={fields.removePassword}
                onChange={(event) => set({ removePassword: event.currentTarget.checked, password: '' })}
              />
              Remove the password
            </label>
          )}
        </div>
        <div class="field">
          <label for={id('expiry')}>Expires</label>
          <input
            id={id('expiry')}
            type="datetime-local"
            value={fields.expiry}
            aria-describedby={id('expiry-hint')}
            onInput={(event) => set({ expiry: event.currentTarget.value })}
          />
          <span id={id('expiry-hint')} class="hint">
            Your local time. Empty: {props.link ? 'never expires' : "the server's default (none unless the admin set one)"}.
          </span>
        </div>
        <div class="field">
          <label for={id('max-views')}>View limit</label>
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
            Empty: no limit. Repeat visits and bots do not count.
          </span>
        </div>
      </div>
      <Switch label="Readers may download the PDF" checked={fields.allowDownload} onChange={(allowDownload) => set({ allowDownload })} />
      <CountedField
        id={id('watermark')}
        label="Watermark"
        value={fields.watermark}
        max={LINK_LIMITS.watermark}
        onInput={(watermark) => set({ watermark })}
      />
      <span id={id('watermark-hint')} class="hint">
        Drawn across every page each reader sees and downloads. It may name {'{email}'} (the address they gave), {'{date}'}, {'{visit}'}{' '}
        (their visit, as the analytics list it) and {'{label}'}. Empty: none.
      </span>
      <Switch
        label="Search engines may index the page"
        checked={fields.searchEngineVisible}
        onChange={(searchEngineVisible) => set({ searchEngineVisible })}
      />
      <LinkReadersFields id={id} fields={fields} set={set} />
      <div class="field">
        <label for={id('notify')}>Tell me of new readers</label>
        <select
          id={id('notify')}
          value={fields.notify}
          aria-describedby={id('notify-hint')}
          onChange={(event) => set({ notify: event.currentTarget.value as LinkDto['notify'] })}
        >
          <option value="on">At once</option>
          <option value="hourly">In an hourly digest</option>
          <option value="daily">In a daily digest</option>
          <option value="off">Never</option>
        </select>
        <span id={id('notify-hint')} class="hint">
          On your <a href="#/notifications">notification channels</a>: new readers, downloads, accepted agreements.
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
          {busy ? 'Saving…' : props.submitLabel}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
