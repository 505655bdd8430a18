import { useState } from 'preact/hooks'
import { api, errorText, ok } from './api'
import { PasswordTwice } from './password-twice'
import { session } from './session'
import { BrandMark } from './brand'

/**
 * A mailed reset link (#/reset/SECRET): choose a new password, typed twice, and be signed in; with two-factor
 * sign-in on, the reset only sets the password, and the page sends its user to sign in with it and a code.
 */
export function ResetPage(props: { secret: string }) {
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const [changed, setChanged] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    if (password !== again) return setError('The two passwords differ')
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(api.api.auth['password-reset'].complete.post({ secret: props.secret, password }))
      if ('token' in data) return session.signedInLeaving(data)
      history.replaceState(null, '', '#/') // the used secret leaves the address bar and the history
      setChanged(true)
    } catch (failure) {
      setError(errorText(failure, 'The password was not changed'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="sign-in">
      <h1 class="brand-heading">
        <BrandMark />
      </h1>
      {changed ? (
        <div class="stack" role="status">
          <h2>Your new password is set</h2>
          <p>Sign in with it and a code from your authenticator app.</p>
          <button type="button" class="primary" onClick={() => dispatchEvent(new HashChangeEvent('hashchange'))}>
            Sign in
          </button>
        </div>
      ) : (
        <form onSubmit={submit} aria-describedby={error ? 'reset-error' : undefined}>
          <h2>Choose a new password</h2>
          <PasswordTwice id="reset" label="New password" password={password} again={again} onPassword={setPassword} onAgain={setAgain} />
          {error && (
            <p id="reset-error" class="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" class="primary" disabled={busy}>
            Save and sign in
          </button>
        </form>
      )}
    </main>
  )
}
