import { useState } from 'preact/hooks'
import type { MeDto } from '../../../src/routes/auth/model'
import { api, errorText, ok } from './api'
import { CurrentPassword } from './current-password'
import { notify } from './ui'
import { t, tx } from './i18n'

/** The address a password reset is mailed to (docs/api.md, Password reset): a new one counts once the link mailed to it is opened. */
export function EmailPanel(props: { me: MeDto; onChanged: () => void }) {
  const [email, setEmail] = useState(props.me.email ?? '')
  const [password, setPassword] = useState('')
  const save = async (event: Event) => {
    event.preventDefault()
    try {
      const { data } = await ok(api.api.me.email.put({ email: email.trim() === '' ? null : email.trim(), password }))
      setPassword('')
      notify('ok', data.message)
      props.onChanged()
    } catch (failure) {
      notify('error', errorText(failure, t('email.notSaved')))
    }
  }
  return (
    <section class="card" aria-labelledby="email-heading">
      <h2 id="email-heading">{t('email.heading')}</h2>
      <p>{props.me.email ? tx('email.now', { email: <strong>{props.me.email}</strong> }) : t('email.none')}</p>
      {props.me.pendingEmail && <p class="hint">{tx('email.pending', { email: <strong>{props.me.pendingEmail}</strong> })}</p>}
      <form class="stack" onSubmit={save}>
        <div class="field">
          <label for="account-email">{t('email.heading')}</label>
          <input id="account-email" type="email" autocomplete="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </div>
        <CurrentPassword id="email-password" value={password} onInput={setPassword} />
        <div class="row">
          <button type="submit" disabled={password === ''}>
            {t('email.save')}
          </button>
        </div>
      </form>
    </section>
  )
}
