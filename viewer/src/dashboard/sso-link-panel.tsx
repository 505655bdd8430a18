import type { MeDto } from '../../../src/routes/auth/model'
import { api, errorText, ok } from './api'
import { notify } from './ui'

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
      notify('ok', allow ? `Single sign-on as ${link.email} will open this account` : 'Single sign-on request refused')
      props.onChanged()
    } catch (failure) {
      notify('error', errorText(failure, 'The single sign-on link was not changed'))
    }
  }
  return (
    <section class="card" aria-labelledby="sso-link-heading">
      <h2 id="sso-link-heading">Single sign-on</h2>
      {link.allowed ? (
        <p>
          Signing in through single sign-on as <strong>{link.email}</strong> will open this account (the first sign-in links it).
        </p>
      ) : (
        <p>
          An admin asked that signing in through single sign-on as <strong>{link.email}</strong> open this account. Allow it only if that is
          your own account at the sign-in provider: whoever signs in with it will have your files.
        </p>
      )}
      <div class="row wrap">
        {!link.allowed && (
          <button type="button" class="primary" onClick={() => act(true)}>
            Allow
          </button>
        )}
        <button type="button" class="danger" onClick={() => act(false)}>
          {link.allowed ? 'Withdraw' : 'Refuse'}
        </button>
      </div>
    </section>
  )
}
