import { startRegistration } from '@simplewebauthn/browser'
import { useState } from 'preact/hooks'
import type { MeDto } from '../../../src/routes/auth/model'
import type { PasskeyDto } from '../../../src/routes/passkeys/model'
import { api, errorText, ok } from './api'
import { CurrentPassword, proofOf } from './current-password'
import { formatDate } from './format'
import { notify } from './ui'
import { useLoad } from './use-api'
import { t } from './i18n'

/** Whether this browser, on this address, can use passkeys at all (HTTPS or localhost, and WebAuthn). */
export const passkeysUsable = () => window.isSecureContext && typeof window.PublicKeyCredential === 'function'

/** The cancelled prompt is no failure to report: the user chose not to. */
const cancelled = (failure: unknown) => failure instanceof Error && failure.name === 'NotAllowedError'

/**
 * Adding, listing and removing the account's passkeys (docs/sign-in.md, Passkeys). Both send the password again
 * when the account has one (docs/sign-in.md, Changing how you sign in).
 */
export function PasskeysPanel(props: { me: MeDto }) {
  const list = useLoad(() => ok(api.api.me.passkeys.get()), [], { failure: t('pk.loadFailed') })
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const proof = () => proofOf(props.me.hasPassword, password)

  const add = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    try {
      const { data: optionsJSON } = await ok(api.api.me.passkeys.options.post(proof()))
      const credential = await startRegistration({ optionsJSON })
      const { data } = await ok(api.api.me.passkeys.post({ name: name.trim(), credential, ...proof() }))
      notify('ok', t('pk.added', { name: data.name }))
      setName('')
      setPassword('')
      void list.reload()
    } catch (failure) {
      if (!cancelled(failure)) notify('error', errorText(failure, t('pk.notAdded')))
    } finally {
      setBusy(false)
    }
  }
  const remove = async (passkey: PasskeyDto) => {
    if (props.me.hasPassword && password === '') return notify('error', t('pk.passwordFirst'))
    if (!confirm(t('pk.removeConfirm', { name: passkey.name }))) return
    try {
      await ok(api.api.me.passkeys({ id: passkey.id }).delete(proof()))
      setPassword('')
      notify('ok', t('pk.removed', { name: passkey.name }))
      void list.reload()
    } catch (failure) {
      notify('error', errorText(failure, t('pk.notRemoved')))
    }
  }

  return (
    <section class="card" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">{t('pk.heading')}</h2>
      <p>{t('pk.text')}</p>
      {list.value && list.value.length > 0 && (
        <ul class="passkeys">
          {list.value.map((passkey) => (
            <li key={passkey.id}>
              <strong>{passkey.name}</strong> <span class="hint">{t('pk.added2', { date: formatDate(passkey.createdAt) })}</span>
              {passkey.lastUsedAt && <span class="hint">{t('pk.lastUsed', { date: formatDate(passkey.lastUsedAt) })}</span>}{' '}
              <button type="button" class="danger" onClick={() => remove(passkey)} aria-label={t('pk.removeNamed', { name: passkey.name })}>
                {t('common.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {props.me.hasPassword && <CurrentPassword id="passkey-password" value={password} onInput={setPassword} />}
      {passkeysUsable() ? (
        <form class="row wrap" onSubmit={add}>
          <label for="passkey-name">{t('pk.name')}</label>
          <input
            id="passkey-name"
            required
            maxLength={100}
            placeholder={t('pk.namePlaceholder')}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <button type="submit" class="primary" disabled={busy}>
            {t('pk.add')}
          </button>
        </form>
      ) : (
        <p class="hint">{t('pk.unusable')}</p>
      )}
    </section>
  )
}
