import { t } from './i18n'
/**
 * "Your password", asked again by every change of how the account signs in (passkeys, two-factor sign-in, the
 * reset email: docs/sign-in.md, Changing how you sign in). An account without a password is not asked: a recent
 * sign-in is its proof, and the server says when to sign in again.
 */
export function CurrentPassword(props: { id: string; value: string; onInput: (value: string) => void }) {
  return (
    <div class="field">
      <label for={props.id}>{t('password.current')}</label>
      <input
        id={props.id}
        type="password"
        autocomplete="current-password"
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </div>
  )
}

/** The body field the server takes: the password when the account has one (never an empty one). */
export const proofOf = (hasPassword: boolean, password: string) => (hasPassword ? { password } : {})
