import { startAuthentication } from '@simplewebauthn/browser'
import { useEffect, useState } from 'preact/hooks'
import { ApiError, api, apiBase, errorText, ok } from './api'
import { passkeysUsable } from './passkeys-panel'
import { session, tokenIdOf } from './session'
import { BrandMark } from './brand'
import { t, tx } from './i18n'

const appData = document.getElementById('app')?.dataset
/** The provider's name when the server has single sign-on, and whether password sign-in is on. */
const SSO_NAME = appData?.sso ?? ''
const PASSWORD_SIGN_IN = appData?.passwordSignIn !== 'false'
/** Behind an authenticating proxy the page signs its user in by itself, once per page load (not after a sign-out). */
const AUTH_PROXY = appData?.authProxy === 'true'
/** Whether the server can mail a password reset. */
const MAIL_ON = appData?.mail === 'true'
let proxyTried = false
const SSO_START = `${apiBase.replace(/\/api$/, '')}/auth/oidc/login`

/** Where a single sign-on ends (#/sso/CODE): the one-time code becomes this tab's session. */
export function SsoFinish(props: { code: string }) {
  const [error, setError] = useState('')
  useEffect(() => {
    ok(api.api.auth.sso.post({ code: props.code }))
      .then(({ data }) => {
        session.signedInLeaving(data)
      })
      .catch((failure: unknown) => {
        history.replaceState(null, '', '#/')
        setError(errorText(failure, t('signIn.failed')))
      })
  }, [props.code])
  return (
    <main class="sign-in">
      <h1 class="brand-heading">
        <BrandMark />
      </h1>
      {error ? (
        <>
          <p class="form-error" role="alert">
            {error}
          </p>
          <a href={SSO_START}>{SSO_NAME ? t('signIn.ssoAgainNamed', { name: SSO_NAME }) : t('signIn.ssoAgain')}</a>
        </>
      ) : (
        <p aria-busy="true">{t('signIn.signingIn')}</p>
      )}
    </main>
  )
}

/** Username and password, or an API token pasted in (for users created without a password), or single sign-on. */
export function SignIn() {
  const [mode, setMode] = useState<'password' | 'token'>(PASSWORD_SIGN_IN ? 'password' : 'token')
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [pasted, setPasted] = useState('')
  // Set once the password was right and the account asks for a second factor.
  const [code, setCode] = useState<string | null>(null)
  // The "forgot password" form: null while closed; the answer once sent.
  const [forgot, setForgot] = useState<string | null>(null)
  const [sentNotice, setSentNotice] = useState('')
  const [error, setError] = useState(session.takeExpiredNotice() ? t('signIn.expired') : '')
  const [busy, setBusy] = useState(false)

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError('')
    try {
      if (mode === 'password') {
        const { data } = await ok(api.api.auth.login.post({ username, password, ...(code !== null && { code }) }))
        session.signedIn(data)
      } else {
        const token = pasted.trim()
        session.start({ token, tokenId: tokenIdOf(token), name: '', kind: 'pasted' })
        const me = await ok(api.api.me.get())
        session.start({ token, tokenId: tokenIdOf(token), name: me.data.name, kind: 'pasted' })
      }
    } catch (failure) {
      if (mode === 'token') session.end()
      if (failure instanceof ApiError && failure.code === 'second_factor_required' && code === null) {
        setCode('')
        return
      }
      setError(errorText(failure, t('signIn.failed')))
    } finally {
      setBusy(false)
    }
  }

  const viaProxy = async () => {
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(api.api.auth.proxy.post())
      session.signedIn(data)
    } catch (failure) {
      setError(errorText(failure, t('signIn.proxyFailed')))
    } finally {
      setBusy(false)
    }
  }
  useEffect(() => {
    if (!AUTH_PROXY || proxyTried) return
    proxyTried = true
    void viaProxy()
  }, [])

  const askReset = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    try {
      const { data } = await ok(api.api.auth['password-reset'].post({ email: (forgot ?? '').trim() }))
      setSentNotice(data.message)
      setForgot(null)
    } catch (failure) {
      setError(errorText(failure, t('signIn.resetFailed')))
    } finally {
      setBusy(false)
    }
  }

  const withPasskey = async () => {
    setBusy(true)
    setError('')
    try {
      const { data: optionsJSON } = await ok(api.api.auth.passkey.options.post())
      const credential = await startAuthentication({ optionsJSON })
      const { data } = await ok(api.api.auth.passkey.post({ credential }))
      session.signedIn(data)
    } catch (failure) {
      // A prompt the user closed is no failure to report.
      if (!(failure instanceof Error && failure.name === 'NotAllowedError')) setError(errorText(failure, t('signIn.passkeyFailed')))
    } finally {
      setBusy(false)
    }
  }

  return (
    <main class="sign-in">
      <h1 class="brand-heading">
        <BrandMark />
      </h1>
      {SSO_NAME && (
        <a class="sso" href={SSO_START}>
          {t('signIn.withSso', { name: SSO_NAME })}
        </a>
      )}
      <form onSubmit={submit} aria-describedby={error ? 'sign-in-error' : undefined}>
        <h2>{mode === 'password' ? t('signIn.title') : t('signIn.titleToken')}</h2>
        {mode === 'password' ? (
          <>
            <div class="field">
              <label for="username">{t('signIn.username')}</label>
              <input
                id="username"
                name="username"
                autocomplete="username"
                required
                value={username}
                onInput={(e) => setUsername(e.currentTarget.value)}
              />
            </div>
            <div class="field">
              <label for="password">{t('signIn.password')}</label>
              <input
                id="password"
                name="password"
                type="password"
                autocomplete="current-password"
                required
                value={password}
                onInput={(e) => setPassword(e.currentTarget.value)}
              />
            </div>
            {code !== null && (
              <div class="field">
                <label for="code">{t('signIn.code')}</label>
                <input
                  id="code"
                  name="code"
                  autocomplete="one-time-code"
                  inputMode="numeric"
                  required
                  // biome-ignore lint/a11y/noAutofocus: the field appears after the password, where the user's attention is
                  autoFocus
                  aria-describedby="code-hint"
                  value={code}
                  onInput={(e) => setCode(e.currentTarget.value)}
                />
                <p id="code-hint" class="hint">
                  {t('signIn.codeHint')}
                </p>
                {passkeysUsable() && (
                  <button type="button" class="link" onClick={withPasskey}>
                    {t('signIn.passkeyInstead')}
                  </button>
                )}
              </div>
            )}
          </>
        ) : (
          <div class="field">
            <label for="api-token">{t('signIn.token')}</label>
            <textarea
              id="api-token"
              rows={4}
              required
              spellcheck={false}
              value={pasted}
              onInput={(e) => setPasted(e.currentTarget.value)}
            />
            <p class="hint">{tx('signIn.tokenHint', { command: <code>pdfshare token issue NAME</code> })}</p>
          </div>
        )}
        {error && (
          <p id="sign-in-error" class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('signIn.signingIn') : t('signIn.submit')}
        </button>
        {PASSWORD_SIGN_IN && (
          <>
            <button type="button" class="link" onClick={() => setMode(mode === 'password' ? 'token' : 'password')}>
              {mode === 'password' ? t('signIn.toToken') : t('signIn.toPassword')}
            </button>
            <p class="hint">{tx('signIn.noPassword', { command: <code>pdfshare user passwd NAME</code> })}</p>
          </>
        )}
      </form>
      {MAIL_ON && PASSWORD_SIGN_IN && forgot === null && (
        <button type="button" class="link" onClick={() => setForgot('')}>
          {t('signIn.forgot')}
        </button>
      )}
      {forgot !== null && (
        <form class="row wrap" onSubmit={askReset}>
          <label for="reset-email">{t('signIn.email')}</label>
          <input
            id="reset-email"
            type="email"
            autocomplete="email"
            required
            value={forgot}
            onInput={(e) => setForgot(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            {t('signIn.mailLink')}
          </button>
        </form>
      )}
      {sentNotice && <p role="status">{sentNotice}</p>}
      {AUTH_PROXY && (
        <button type="button" class="passkey alternative" disabled={busy} onClick={viaProxy}>
          {t('signIn.proxy')}
        </button>
      )}
      {passkeysUsable() && (
        <button type="button" class="passkey alternative" disabled={busy} onClick={withPasskey}>
          {t('signIn.passkey')}
        </button>
      )}
    </main>
  )
}
