import { useState } from 'preact/hooks'
import { api, errorText, ok } from './api'
import { PasswordTwice } from './password-twice'
import { session } from './session'
import { BrandMark } from './brand'
import { t } from './i18n'

/** Whether the server sends mail: then the new account may name its email (confirmed by a mailed link). */
const MAIL_ON = document.getElementById('app')?.dataset.mail === 'true'

/** An invitation link (#/join/SECRET): choose a user name and a password (and an email, to confirm), and be signed in. */
export function JoinPage(props: { invitation: string }) {
  const [username, setUsername] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (password !== again) return setError(t('join.differ'))
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(
        api.api.auth['accept-invitation'].post({
          invitation: props.invitation,
          username,
          password,
          ...(email.trim() !== '' && { email: email.trim() }),
        }),
      )
      session.signedInLeaving(data)
    } catch (failure) {
      setError(errorText(failure, t('join.failed')))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="sign-in">
      <h1 class="brand-heading">
        <BrandMark />
      </h1>
      <form onSubmit={submit} aria-describedby={error ? 'join-error' : undefined}>
        <h2>{t('join.heading')}</h2>
        <p>{t('join.text')}</p>
        <div class="field">
          <label for="join-username">{t('signIn.username')}</label>
          <input
            id="join-username"
            autocomplete="username"
            required
            maxLength={64}
            value={username}
            onInput={(e) => setUsername(e.currentTarget.value)}
          />
        </div>
        <PasswordTwice
          id="join"
          label={t('signIn.password')}
          password={password}
          again={again}
          onPassword={setPassword}
          onAgain={setAgain}
        />
        {MAIL_ON && (
          <div class="field">
            <label for="join-email">{t('join.email')}</label>
            <input id="join-email" type="email" autocomplete="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            <p class="hint">{t('join.emailHint')}</p>
          </div>
        )}
        {error && (
          <p id="join-error" class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {t('join.submit')}
        </button>
      </form>
    </main>
  )
}
