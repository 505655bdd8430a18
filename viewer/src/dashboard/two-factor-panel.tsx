import { useState } from 'preact/hooks'
import type { MeDto } from '../../../src/routes/auth/model'
import { api, errorText, ok } from './api'
import { CurrentPassword } from './current-password'
import { QrCode } from './qr-code'
import { copyWithNotice, notify } from './ui'

/** Recovery codes, shown once: each works once in place of a code from the app. */
function RecoveryCodes(props: { codes: string[]; onDone: () => void }) {
  return (
    <div class="created-token" role="alert">
      <p>Save these recovery codes somewhere safe (not on the phone). Each works once if the phone is lost. They are not shown again.</p>
      <ul class="recovery-codes" aria-label="Recovery codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div class="row">
        <button type="button" onClick={() => copyWithNotice(props.codes.join('\n'), 'codes')}>
          Copy
        </button>
        <button type="button" class="primary" onClick={props.onDone}>
          I have saved them
        </button>
      </div>
    </div>
  )
}

/**
 * Setting up, using and turning off two-factor sign-in (docs/api.md, Two-factor sign-in). Each step sends the
 * password again (docs/sign-in.md, Changing how you sign in): typed before setting up, kept for the confirmation.
 */
export function TwoFactorPanel(props: { me: MeDto; onChanged: () => void }) {
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null)
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [codes, setCodes] = useState<string[] | null>(null)
  const [busy, setBusy] = useState(false)
  const { twoFactor } = props.me

  const act = async (work: () => Promise<void>, failure: string) => {
    setBusy(true)
    try {
      await work()
    } catch (error) {
      notify('error', errorText(error, failure))
    } finally {
      setBusy(false)
    }
  }
  const start = () =>
    act(async () => {
      setSetup((await ok(api.api.me['two-factor'].post({ password }))).data)
      setCode('')
    }, 'Two-factor sign-in could not be set up')
  const confirm = (event: Event) => {
    event.preventDefault()
    return act(async () => {
      const { data } = await ok(api.api.me['two-factor'].confirm.post({ code: code.trim(), password }))
      setPassword('')
      setSetup(null)
      setCodes(data.recoveryCodes)
      notify('ok', 'Two-factor sign-in is on')
    }, 'Two-factor sign-in was not turned on')
  }
  const renew = () =>
    act(async () => {
      const { data } = await ok(api.api.me['two-factor']['recovery-codes'].post({ password }))
      setPassword('')
      setCodes(data.recoveryCodes)
      notify('ok', 'New recovery codes made; the old ones no longer work')
    }, 'No new recovery codes were made')
  const turnOff = () =>
    act(async () => {
      await ok(api.api.me['two-factor'].off.post({ password }))
      setPassword('')
      notify('ok', 'Two-factor sign-in is off')
      props.onChanged()
    }, 'Two-factor sign-in was not turned off')

  return (
    <section class="card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor sign-in</h2>
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null)
            props.onChanged()
          }}
        />
      ) : !props.me.hasPassword ? (
        <p>This account signs in with API tokens only; two-factor sign-in guards a password sign-in.</p>
      ) : twoFactor.enabled ? (
        <form class="stack" onSubmit={(event) => event.preventDefault()}>
          <p>
            <strong>On.</strong> Signing in asks for a code from your authenticator app. {twoFactor.recoveryCodesLeft} of 10 recovery codes
            left.
          </p>
          <CurrentPassword id="two-factor-password" value={password} onInput={setPassword} />
          <div class="row">
            <button type="button" disabled={busy || password === ''} onClick={renew}>
              New recovery codes
            </button>
            <button type="button" class="danger" disabled={busy || password === ''} onClick={turnOff}>
              Turn off
            </button>
          </div>
        </form>
      ) : setup ? (
        <form class="stack" onSubmit={confirm}>
          <p>Scan this with an authenticator app (any TOTP app), then type the code it shows.</p>
          <QrCode text={setup.uri} label="QR code for your authenticator app" />
          <p class="hint">
            Cannot scan? Enter this key: <code class="secret">{setup.secret}</code>
          </p>
          <div class="field">
            <label for="two-factor-code">Code from the app</label>
            <input
              id="two-factor-code"
              autocomplete="one-time-code"
              inputMode="numeric"
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </div>
          <div class="row">
            <button type="submit" class="primary" disabled={busy}>
              Turn on
            </button>
            <button
              type="button"
              class="link"
              onClick={() => {
                setSetup(null)
                setPassword('')
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault()
            void start()
          }}
        >
          <p>Off. With it on, signing in also asks for a code from an app on your phone.</p>
          <CurrentPassword id="two-factor-password" value={password} onInput={setPassword} />
          <button type="submit" class="primary" disabled={busy || password === ''}>
            Set up two-factor sign-in
          </button>
        </form>
      )}
    </section>
  )
}
