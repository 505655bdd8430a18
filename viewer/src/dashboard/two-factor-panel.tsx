import { useState } from 'preact/hooks'
import type { MeDto } from '../../../src/routes/auth/model'
import { api, errorText, ok } from './api'
import { CurrentPassword } from './current-password'
import { QrCode } from './qr-code'
import { copyWithNotice, notify } from './ui'
import { t, tx } from './i18n'

/** Recovery codes, shown once: each works once in place of a code from the app. */
function RecoveryCodes(props: { codes: string[]; onDone: () => void }) {
  return (
    <div class="created-token" role="alert">
      <p>{t('tf.codesText')}</p>
      <ul class="recovery-codes" aria-label={t('tf.codes')}>
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div class="row">
        <button type="button" onClick={() => copyWithNotice(props.codes.join('\n'), 'codes')}>
          {t('common.copy')}
        </button>
        <button type="button" class="primary" onClick={props.onDone}>
          {t('tf.saved')}
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
    }, t('tf.setupFailed'))
  const confirm = (event: Event) => {
    event.preventDefault()
    return act(async () => {
      const { data } = await ok(api.api.me['two-factor'].confirm.post({ code: code.trim(), password }))
      setPassword('')
      setSetup(null)
      setCodes(data.recoveryCodes)
      notify('ok', t('tf.on'))
    }, t('tf.notOn'))
  }
  const renew = () =>
    act(async () => {
      const { data } = await ok(api.api.me['two-factor']['recovery-codes'].post({ password }))
      setPassword('')
      setCodes(data.recoveryCodes)
      notify('ok', t('tf.renewed'))
    }, t('tf.notRenewed'))
  const turnOff = () =>
    act(async () => {
      await ok(api.api.me['two-factor'].off.post({ password }))
      setPassword('')
      notify('ok', t('tf.off'))
      props.onChanged()
    }, t('tf.notOff'))

  return (
    <section class="card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">{t('tf.heading')}</h2>
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null)
            props.onChanged()
          }}
        />
      ) : !props.me.hasPassword ? (
        <p>{t('tf.tokensOnly')}</p>
      ) : twoFactor.enabled ? (
        <form class="stack" onSubmit={(event) => event.preventDefault()}>
          <p>{t('tf.onText', { left: twoFactor.recoveryCodesLeft })}</p>
          <CurrentPassword id="two-factor-password" value={password} onInput={setPassword} />
          <div class="row">
            <button type="button" disabled={busy || password === ''} onClick={renew}>
              {t('tf.newCodes')}
            </button>
            <button type="button" class="danger" disabled={busy || password === ''} onClick={turnOff}>
              {t('tf.turnOff')}
            </button>
          </div>
        </form>
      ) : setup ? (
        <form class="stack" onSubmit={confirm}>
          <p>{t('tf.scan')}</p>
          <QrCode text={setup.uri} label={t('tf.qr')} />
          <p class="hint">{tx('tf.key', { key: <code class="secret">{setup.secret}</code> })}</p>
          <div class="field">
            <label for="two-factor-code">{t('tf.code')}</label>
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
              {t('tf.turnOn')}
            </button>
            <button
              type="button"
              class="link"
              onClick={() => {
                setSetup(null)
                setPassword('')
              }}
            >
              {t('common.cancel')}
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
          <p>{t('tf.offText')}</p>
          <CurrentPassword id="two-factor-password" value={password} onInput={setPassword} />
          <button type="submit" class="primary" disabled={busy || password === ''}>
            {t('tf.setup')}
          </button>
        </form>
      )}
    </section>
  )
}
