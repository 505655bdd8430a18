import { useState } from 'preact/hooks'
import { api, errorText, ok } from './api'
import { session } from './session'

/** An invitation link (#/join/SECRET): choose a user name and a password, and be signed in. */
export function JoinPage(props: { invitation: string }) {
  const [username, setUsername] = useState('')
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
      const { data } = await ok(api.api.auth['accept-invitation'].post({ invitation: props.invitation, username, password }))
      history.replaceState(null, '', '#/files') // the secret leaves the address bar and the history
      dispatchEvent(new HashChangeEvent('hashchange')) // replaceState fires none: the app routes to the files
      session.start({ token: data.token, tokenId: data.tokenId, name: data.user.name, kind: 'login' })
    } catch (failure) {
      setError(errorText(failure, 'The account was not made'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="sign-in">
      <h1>pdfshare</h1>
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
        <div class="field">
          <label for="join-password">Password</label>
          <input
            id="join-password"
            type="password"
            autocomplete="new-password"
            required
            minLength={8}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="join-again">Password again</label>
          <input
            id="join-again"
            type="password"
            autocomplete="new-password"
            required
            value={again}
            onInput={(e) => setAgain(e.currentTarget.value)}
          />
        </div>
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
