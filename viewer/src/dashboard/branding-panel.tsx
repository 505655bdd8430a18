import { useState } from 'preact/hooks'
import type { BrandingDto } from '../../../src/routes/branding/model'
import { BRAND_LIMITS, LOGO_TYPES } from '../../../src/shared/branding-shapes'
import { api, errorText, ok, putPicture } from './api'
import { formatBytes } from './format'
import { CountedField, notify, Switch } from './ui'
import { useLoad } from './use-api'

const FROM_SETTING = 'the server’s setting'

/** The form as typed: the Admin page's own values ('' for a field left to the setting). */
type Fields = { name: string; accent: string; hidePdfshare: boolean }
const fieldsOf = (branding: BrandingDto): Fields => ({
  name: branding.fromSettings.includes('name') ? '' : (branding.name ?? ''),
  accent: branding.fromSettings.includes('accent') ? '' : (branding.accent ?? ''),
  hidePdfshare: branding.hidePdfshare,
})

/**
 * The instance's branding (docs/operations.md, Branding): the name, the accent colour, whether share pages name
 * pdfshare, and the logo. A field left empty is the server's setting (PDFSHARE_BRAND_*), shown as its placeholder.
 */
export function BrandingPanel() {
  const loaded = useLoad(() => ok(api.api.admin.branding.get()), [], { failure: 'The branding could not be loaded' })
  const branding = loaded.value
  return (
    <section class="card branding" aria-labelledby="branding-heading">
      <h2 id="branding-heading">Branding</h2>
      <p class="hint">
        What readers see on share pages, and everyone on this dashboard. An empty field is {FROM_SETTING} (<code>PDFSHARE_BRAND_*</code>).
      </p>
      {loaded.error && (
        <p class="form-error" role="alert">
          {loaded.error}
        </p>
      )}
      {branding && (
        <>
          <BrandingForm key={branding.updatedAt ?? 'settings'} branding={branding} onSaved={(saved) => loaded.set(saved)} />
          <LogoField branding={branding} onSaved={(saved) => loaded.set(saved)} />
        </>
      )}
    </section>
  )
}

function BrandingForm(props: { branding: BrandingDto; onSaved: (branding: BrandingDto) => void }) {
  const { branding } = props
  const [fields, setFields] = useState(fieldsOf(branding))
  const [busy, setBusy] = useState(false)
  const set = (change: Partial<Fields>) => setFields({ ...fields, ...change })
  const start = fieldsOf(branding)
  const save = async (event: Event) => {
    event.preventDefault()
    const change: { name?: string | null; accent?: string | null; hidePdfshare?: boolean } = {}
    if (fields.name.trim() !== start.name) change.name = fields.name.trim() === '' ? null : fields.name
    if (fields.accent.trim() !== start.accent) change.accent = fields.accent.trim() === '' ? null : fields.accent.trim()
    if (fields.hidePdfshare !== start.hidePdfshare) change.hidePdfshare = fields.hidePdfshare
    setBusy(true)
    try {
      const { data } = await ok(api.api.admin.branding.patch(change))
      props.onSaved(data)
      notify('ok', 'Branding saved: share pages show it now, this dashboard after a reload')
    } catch (failure) {
      notify('error', errorText(failure, 'The branding was not saved'))
    } finally {
      setBusy(false)
    }
  }
  const setting = (field: 'name' | 'accent', value: string | null) =>
    branding.fromSettings.includes(field) && value ? `${value} (${FROM_SETTING})` : `none (${FROM_SETTING})`
  return (
    <form class="branding-form" onSubmit={save}>
      <CountedField id="brand-name" label="Instance name" value={fields.name} max={BRAND_LIMITS.name} onInput={(name) => set({ name })} />
      <p class="hint">Empty: {setting('name', branding.name)}.</p>
      <div class="field">
        <label for="brand-accent">Accent colour</label>
        <div class="row">
          <input
            id="brand-accent-picker"
            type="color"
            aria-label="Pick the accent colour"
            value={fields.accent || branding.accent || '#1a56c4'}
            onInput={(event) => set({ accent: event.currentTarget.value })}
          />
          <input
            id="brand-accent"
            class="accent-text"
            value={fields.accent}
            placeholder={branding.fromSettings.includes('accent') ? (branding.accent ?? '#rrggbb') : '#rrggbb'}
            aria-describedby="brand-accent-hint"
            onInput={(event) => set({ accent: event.currentTarget.value })}
          />
        </div>
        <span id="brand-accent-hint" class="hint">
          Buttons, links and focus rings, written #rrggbb. Empty: {setting('accent', branding.accent)}.
          {branding.accentDark && branding.accentDark !== branding.accent && ` Dark mode shows the lighter ${branding.accentDark}.`}
        </span>
      </div>
      {branding.warnings.map((warning) => (
        <p key={warning} class="form-error" role="status">
          {warning}
        </p>
      ))}
      <Switch
        label="Name pdfshare nowhere on share pages (link previews, icon)"
        checked={fields.hidePdfshare}
        onChange={(hidePdfshare) => set({ hidePdfshare })}
      />
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save the branding'}
        </button>
      </div>
    </form>
  )
}

function LogoField(props: { branding: BrandingDto; onSaved: (branding: BrandingDto) => void }) {
  const { logo, fromSettings } = props.branding
  const [busy, setBusy] = useState(false)
  const run = async (work: () => Promise<BrandingDto>, done: string, failed: string) => {
    setBusy(true)
    try {
      props.onSaved(await work())
      notify('ok', done)
    } catch (failure) {
      notify('error', errorText(failure, failed))
    } finally {
      setBusy(false)
    }
  }
  const upload = (event: Event) => {
    const input = event.currentTarget as HTMLInputElement
    const file = input.files?.[0]
    input.value = ''
    if (file) void run(() => putPicture<BrandingDto>('/admin/branding/logo', file), 'Logo saved', 'The logo was not saved')
  }
  const remove = () => run(async () => (await ok(api.api.admin.branding.logo.delete())).data, 'Logo removed', 'The logo was not removed')
  return (
    <div class="field logo-field">
      <span class="label-text" id="brand-logo-label">
        Logo
      </span>
      {logo ? (
        <p class="logo-preview">
          <img src={logo.url} width={logo.width} height={logo.height} alt="The logo as shared pages show it" />
          <span class="hint">
            {logo.width}×{logo.height}, {formatBytes(logo.bytes)}
            {fromSettings.includes('logo') && ` (${FROM_SETTING})`}
          </span>
        </p>
      ) : (
        <p class="hint">None.</p>
      )}
      <div class="row wrap">
        <label class="button-like" for="brand-logo-file">
          {logo && !fromSettings.includes('logo') ? 'Replace the logo…' : 'Upload a logo…'}
        </label>
        <input
          id="brand-logo-file"
          class="visually-hidden"
          type="file"
          accept={LOGO_TYPES.join(',')}
          disabled={busy}
          aria-describedby="brand-logo-hint"
          onChange={upload}
        />
        {logo && !fromSettings.includes('logo') && (
          <button type="button" disabled={busy} onClick={remove}>
            Remove the logo
          </button>
        )}
      </div>
      <span id="brand-logo-hint" class="hint">
        PNG, JPEG or WebP, at most {formatBytes(BRAND_LIMITS.logoBytes)}; it is scaled to fit {BRAND_LIMITS.logoWidth}×
        {BRAND_LIMITS.logoHeight}. No SVG: export it as PNG. It should read on light and dark backgrounds alike.
      </span>
    </div>
  )
}
