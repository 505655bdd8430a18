import { useState } from 'preact/hooks'
import type { MeDto } from '../../../src/routes/auth/model'
import { api, errorText, ok } from './api'
import { CurrentPassword } from './current-password'
import { notify } from './ui'

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
      notify('error', errorText(failure, 'The email was not saved'))
    }
  }
  return (
    <section class="card" aria-labelledby="email-heading">
      <h2 id="email-heading">Email</h2>
      <p>
        Where a link to choose a new password is mailed if you forget yours
        {props.me.email ? (
          <>
            : now <strong>{props.me.email}</strong>
          </>
        ) : (
          ' (none yet)'
        )}
        . A new address is used once you open the link mailed to it.
      </p>
      {props.me.pendingEmail && (
        <p class="hint">
          Waiting for confirmation: <strong>{props.me.pendingEmail}</strong>. Open the link mailed to it (valid 24 hours).
        </p>
      )}
      <form class="stack" onSubmit={save}>
        <div class="field">
          <label for="account-email">Email</label>
          <input id="account-email" type="email" autocomplete="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </div>
        <CurrentPassword id="email-password" value={password} onInput={setPassword} />
        <div class="row">
          <button type="submit" disabled={password === ''}>
            Save email
          </button>
        </div>
      </form>
    </section>
  )
}
