import { useState } from 'preact/hooks'
import { api, errorText, ok } from './api'
import { BrandMark } from './brand'
import { t, tx } from './i18n'

/**
 * The link mailed to a new email (#/email/SECRET): one button makes it the account's email (no session needed: the
 * link proves the mailbox, and the account asked for it). A button, not on opening, so a mail scanner that
 * follows links confirms nothing.
 */
export function EmailPage(props: { secret: string }) {
  const [done, setDone] = useState<string | null>(null)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const confirm = async () => {
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(api.api.auth.email.confirm.post({ secret: props.secret }))
      setDone(data.email)
    } catch (failure) {
      setError(errorText(failure, t('confirm.failed')))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="sign-in">
      <h1 class="brand-heading">
        <BrandMark />
      </h1>
      <section aria-labelledby="email-confirm-heading">
        <h2 id="email-confirm-heading">{done ? t('confirm.done') : t('confirm.heading')}</h2>
        {done ? (
          <p role="status">
            {tx('confirm.doneText', { email: <strong>{done}</strong> })} <a href="#/account">{t('confirm.toAccount')}</a>
          </p>
        ) : (
          <>
            <p>{t('confirm.text')}</p>
            {error && (
              <p class="form-error" role="alert">
                {error}
              </p>
            )}
            <button type="button" class="primary" disabled={busy} onClick={confirm}>
              {t('confirm.submit')}
            </button>
          </>
        )}
      </section>
    </main>
  )
}
