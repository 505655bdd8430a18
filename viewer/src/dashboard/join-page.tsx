import { useState } from 'preact/hooks'
import { api, errorText, ok } from './api'
import { PasswordTwice } from './password-twice'
import { session } from './session'
import { BrandMark } from './brand'

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
    if (password !== again) return setError('The two passwords differ')
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
      setError(errorText(failure, 'The account was not made'))
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
        <h2>Make your account</h2>
        <p>You were invited. Choose a user name (letters, digits, . _ -) and a password of at least 8 characters.</p>
        <div class="field">
          <label for="join-username">User name</label>
          <input
            id="join-username"
            autocomplete="username"
            required
            maxLength={64}
            value={username}
            onInput={(e) => setUsername(e.currentTarget.value)}
          />
        </div>
        <PasswordTwice id="join" label="Password" password={password} again={again} onPassword={setPassword} onAgain={setAgain} />
        {MAIL_ON && (
          <div class="field">
            <label for="join-email">Email (optional)</label>
            <input id="join-email" type="email" autocomplete="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            <p class="hint">For a forgotten password: a link to confirm it is mailed to it.</p>
          </div>
        )}
        {error && (
          <p id="join-error" class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Make my account
        </button>
      </form>
    </main>
  )
}
