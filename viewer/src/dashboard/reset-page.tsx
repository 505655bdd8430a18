import { useState } from 'preact/hooks'
import { api, errorText, ok } from './api'
import { session } from './session'

/** A mailed reset link (#/reset/SECRET): choose a new password, typed twice, and be signed in. */
export function ResetPage(props: { secret: string }) {
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
      const { data } = await ok(api.api.auth['password-reset'].complete.post({ secret: props.secret, password }))
      history.replaceState(null, '', '#/files') // the secret leaves the address bar and the history
      session.start({ token: data.token, tokenId: data.tokenId, name: data.user.name, kind: 'login' })
      dispatchEvent(new HashChangeEvent('hashchange'))
    } catch (failure) {
      setError(errorText(failure, 'The password was not changed'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="sign-in">
      <h1>pdfshare</h1>
      <form onSubmit={submit} aria-describedby={error ? 'reset-error' : undefined}>
        <h2>Choose a new password</h2>
        <div class="field">
          <label for="reset-password">New password</label>
          <input
            id="reset-password"
            type="password"
            autocomplete="new-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="reset-again">New password again</label>
          <input
            id="reset-again"
            type="password"
            autocomplete="new-password"
            required
            value={again}
            onInput={(e) => setAgain(e.currentTarget.value)}
          />
        </div>
        {error && (
          <p id="reset-error" class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Save and sign in
        </button>
      </form>
    </main>
  )
}
