import { useState } from 'preact/hooks'
import type { MeDto } from '../../../src/routes/auth/model'
import { LANGUAGE_NAMES, LANGUAGES } from '../../../src/shared/languages'
import { api, errorText, ok } from './api'
import { t } from './i18n'
import { notify } from './ui'

/**
 * The language of the mails this account gets (PATCH /api/me; docs/languages.md, Mails): one of its own, or none, and
 * then a mail follows the page the request came from, else the server's default. Saved as soon as it is chosen.
 */
export function MailLanguagePanel(props: { me: MeDto; onChanged: () => void }) {
  const [saving, setSaving] = useState(false)
  const choose = async (value: string) => {
    setSaving(true)
    try {
      await ok(api.api.me.patch({ language: LANGUAGES.find((tag) => tag === value) ?? null }))
      notify('ok', t('mailLanguage.saved'))
      props.onChanged()
    } catch (failure) {
      notify('error', errorText(failure, t('mailLanguage.notSaved')))
    } finally {
      setSaving(false)
    }
  }
  return (
    <section class="card" aria-labelledby="mail-language-heading">
      <h2 id="mail-language-heading">{t('mailLanguage.heading')}</h2>
      <p class="hint">{t('mailLanguage.hint')}</p>
      <div class="field">
        <label for="mail-language">{t('mailLanguage.label')}</label>
        <select
          id="mail-language"
          value={props.me.language ?? ''}
          disabled={saving}
          onChange={(event) => void choose(event.currentTarget.value)}
        >
          <option value="">{t('mailLanguage.none')}</option>
          {LANGUAGES.map((tag) => (
            <option key={tag} value={tag} lang={tag}>
              {LANGUAGE_NAMES[tag]}
            </option>
          ))}
        </select>
      </div>
    </section>
  )
}
