import { useState } from 'preact/hooks'
import { api, errorText, ok } from './api'
import { PasswordTwice } from './password-twice'
import { session } from './session'
import { BrandMark } from './brand'
import { t } from './i18n'

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
    if (password !== again) return setError(t('join.differ'))
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(api.api.auth['password-reset'].complete.post({ secret: props.secret, password }))
      if ('token' in data) return session.signedInLeaving(data)
      history.replaceState(null, '', '#/') // the used secret leaves the address bar and the history
      setChanged(true)
    } catch (failure) {
      setError(errorText(failure, t('reset.failed')))
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
          <h2>{t('reset.done')}</h2>
          <p>{t('reset.doneText')}</p>
          <button type="button" class="primary" onClick={() => dispatchEvent(new HashChangeEvent('hashchange'))}>
            {t('signIn.submit')}
          </button>
        </div>
      ) : (
        <form onSubmit={submit} aria-describedby={error ? 'reset-error' : undefined}>
          <h2>{t('reset.heading')}</h2>
          <PasswordTwice
            id="reset"
            label={t('title.reset')}
            password={password}
            again={again}
            onPassword={setPassword}
            onAgain={setAgain}
          />
          {error && (
            <p id="reset-error" class="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" class="primary" disabled={busy}>
            {t('reset.submit')}
          </button>
        </form>
      )}
    </main>
  )
}
