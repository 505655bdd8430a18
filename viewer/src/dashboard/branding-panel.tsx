import { useState } from 'preact/hooks'
import type { BrandingDto } from '../../../src/routes/branding/model'
import { BRAND_LIMITS, LOGO_TYPES } from '../../../src/shared/branding-shapes'
import { api, errorText, ok, putPicture } from './api'
import { formatBytes } from './format'
import { CountedField, notify, Switch } from './ui'
import { useLoad } from './use-api'
import { t, tx } from './i18n'

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
  const loaded = useLoad(() => ok(api.api.admin.branding.get()), [], { failure: t('brand.failed') })
  const branding = loaded.value
  return (
    <section class="card branding" aria-labelledby="branding-heading">
      <h2 id="branding-heading">{t('brand.heading')}</h2>
      <p class="hint">{tx('brand.intro', { setting: t('brand.fromSetting'), vars: <code>PDFSHARE_BRAND_*</code> })}</p>
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
      notify('ok', t('brand.saved'))
    } catch (failure) {
      notify('error', errorText(failure, t('brand.notSaved')))
    } finally {
      setBusy(false)
    }
  }
  const setting = (field: 'name' | 'accent', value: string | null) =>
    branding.fromSettings.includes(field) && value
      ? t('brand.valueFromSetting', { value, setting: t('brand.fromSetting') })
      : t('brand.noneFromSetting', { setting: t('brand.fromSetting') })
  return (
    <form class="branding-form" onSubmit={save}>
      <CountedField id="brand-name" label={t('brand.name')} value={fields.name} max={BRAND_LIMITS.name} onInput={(name) => set({ name })} />
      <p class="hint">Empty: {setting('name', branding.name)}.</p>
      <div class="field">
        <label for="brand-accent">{t('brand.accent')}</label>
        <div class="row">
          <input
            id="brand-accent-picker"
            type="color"
            aria-label={t('brand.pick')}
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
          {t('brand.accentHint', { empty: setting('accent', branding.accent) })}
          {branding.accentDark && branding.accentDark !== branding.accent && ` ${t('brand.dark', { color: branding.accentDark })}`}
        </span>
      </div>
      {branding.warnings.map((warning) => (
        <p key={warning} class="form-error" role="status">
          {warning}
        </p>
      ))}
      <Switch label={t('brand.hide')} checked={fields.hidePdfshare} onChange={(hidePdfshare) => set({ hidePdfshare })} />
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('common.saving') : t('brand.save')}
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
    if (file) void run(() => putPicture<BrandingDto>('/admin/branding/logo', file), t('brand.logoSaved'), t('brand.logoNotSaved'))
  }
  const remove = () =>
    run(async () => (await ok(api.api.admin.branding.logo.delete())).data, t('brand.logoRemoved'), t('brand.logoNotRemoved'))
  return (
    <div class="field logo-field">
      <span class="label-text" id="brand-logo-label">
        {t('brand.logo')}
      </span>
      {logo ? (
        <p class="logo-preview">
          <img src={logo.url} width={logo.width} height={logo.height} alt={t('brand.logoAlt')} />
          <span class="hint">
            {logo.width}×{logo.height}, {formatBytes(logo.bytes)}
            {fromSettings.includes('logo') && ` (${t('brand.fromSetting')})`}
          </span>
        </p>
      ) : (
        <p class="hint">{t('brand.none')}</p>
      )}
      <div class="row wrap">
        <label class="button-like" for="brand-logo-file">
          {logo && !fromSettings.includes('logo') ? t('brand.replace') : t('brand.upload')}
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
            {t('brand.remove')}
          </button>
        )}
      </div>
      <span id="brand-logo-hint" class="hint">
        {t('brand.logoHint', {
          size: formatBytes(BRAND_LIMITS.logoBytes),
          width: BRAND_LIMITS.logoWidth,
          height: BRAND_LIMITS.logoHeight,
        })}
      </span>
    </div>
  )
}
