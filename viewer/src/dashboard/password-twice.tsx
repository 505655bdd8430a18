import { t } from './i18n'
/** A new password typed twice (the join and reset pages); the page compares the two before it sends one. */
export function PasswordTwice(props: {
  id: string
  label: string
  password: string
  again: string
  onPassword: (value: string) => void
  onAgain: (value: string) => void
}) {
  return (
    <>
      <div class="field">
        <label for={`${props.id}-password`}>{props.label}</label>
        <input
          id={`${props.id}-password`}
          type="password"
          autocomplete="new-password"
          required
          minLength={8}
          value={props.password}
          onInput={(e) => props.onPassword(e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={`${props.id}-again`}>{t('password.again', { label: props.label })}</label>
        <input
          id={`${props.id}-again`}
          type="password"
          autocomplete="new-password"
          required
          value={props.again}
          onInput={(e) => props.onAgain(e.currentTarget.value)}
        />
      </div>
    </>
  )
}
