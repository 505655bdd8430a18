import type { MeDto } from '../../../src/routes/auth/model'
import { api, errorText, ok } from './api'
import { notify } from './ui'
import { t, tx } from './i18n'

/**
 * An admin's request that a single sign-on open this account (docs/sign-in.md, Who gets in): on an account in use
 * it applies only once its owner allows it here.
 */
export function SsoLinkPanel(props: { me: MeDto; onChanged: () => void }) {
  const link = props.me.ssoLink
  if (!link) return null
  const act = async (allow: boolean) => {
    try {
      await ok(allow ? api.api.me['sso-link'].post({ email: link.email }) : api.api.me['sso-link'].delete())
      notify('ok', allow ? t('sso.allowed', { email: link.email }) : t('sso.refused'))
      props.onChanged()
    } catch (failure) {
      notify('error', errorText(failure, t('sso.notChanged')))
    }
  }
  return (
    <section class="card" aria-labelledby="sso-link-heading">
      <h2 id="sso-link-heading">{t('sso.heading')}</h2>
      {link.allowed ? (
        <p>{tx('sso.allowedText', { email: <strong>{link.email}</strong> })}</p>
      ) : (
        <p>{tx('sso.askedText', { email: <strong>{link.email}</strong> })}</p>
      )}
      <div class="row wrap">
        {!link.allowed && (
          <button type="button" class="primary" onClick={() => act(true)}>
            {t('sso.allow')}
          </button>
        )}
        <button type="button" class="danger" onClick={() => act(false)}>
          {link.allowed ? t('sso.withdraw') : t('sso.refuse')}
        </button>
      </div>
    </section>
  )
}
