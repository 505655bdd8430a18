import { useState } from 'preact/hooks'
import type { MeDto, TokenDto } from '../../../src/routes/auth/model'
import { type Scope, SCOPE_MEANINGS, SCOPES, TOKEN_LABEL_MAX } from '../../../src/shared/account-shapes'
import { api, errorText, ok } from './api'
import { formatBytes, formatDate } from './format'
import { session } from './session'
import { copyWithNotice, notify } from './ui'
import { AdminChangesPanel } from './admin-changes-panel'
import { EmailPanel } from './email-panel'
import { MailLanguagePanel } from './mail-language-panel'
import { SsoLinkPanel } from './sso-link-panel'
import { PasskeysPanel } from './passkeys-panel'
import { TwoFactorPanel } from './two-factor-panel'
import { useLoad } from './use-api'
import { TableHead } from './table-head'
import { type MessageKey, t, tx } from './i18n'

/** Lifetimes as the API (and the CLI's --ttl) spell them. */
const LIFETIMES: [label: MessageKey, ttl: string][] = [
  ['account.life.day', '1d'],
  ['account.life.30', '30d'],
  ['account.life.90', '90d'],
  ['account.life.year', '1y'],
  ['account.life.never', 'never'],
]

/** What a new token may do: everything the user may (the default), or only the scopes ticked. */
function ScopeChoice(props: {
  admin: boolean
  limited: boolean
  chosen: ReadonlySet<Scope>
  onChange: (limited: boolean, chosen: Set<Scope>) => void
}) {
  const offered = SCOPES.filter((scope) => scope !== 'admin' || props.admin)
  const toggle = (scope: Scope, on: boolean) => {
    const next = new Set(props.chosen)
    if (on) next.add(scope)
    else next.delete(scope)
    props.onChange(true, next)
  }
  return (
    <fieldset class="scopes">
      <legend>{t('account.scopes')}</legend>
      <label>
        <input type="radio" name="token-scope" checked={!props.limited} onChange={() => props.onChange(false, new Set(props.chosen))} />
        {t('account.everything')}
      </label>
      <label>
        <input type="radio" name="token-scope" checked={props.limited} onChange={() => props.onChange(true, new Set(props.chosen))} />
        {t('account.only')}
      </label>
      <div class="scope-list" aria-disabled={!props.limited}>
        {offered.map((scope) => (
          <label key={scope}>
            <input
              type="checkbox"
              checked={props.chosen.has(scope)}
              disabled={!props.limited}
              onChange={(event) => toggle(scope, event.currentTarget.checked)}
            />
            <code>{scope}</code> <span class="hint">{SCOPE_MEANINGS[scope]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}

function Usage(props: { me: MeDto }) {
  const { usage, limits } = props.me
  return (
    <section class="card" aria-labelledby="usage-heading">
      <h2 id="usage-heading">{t('account.usage')}</h2>
      <dl class="usage">
        <dt>{t('account.storage')}</dt>
        <dd>
          {limits.maxStorageBytes === null
            ? t('account.noLimit', { used: formatBytes(usage.bytes) })
            : t('account.of', { used: formatBytes(usage.bytes), limit: formatBytes(limits.maxStorageBytes) })}
          {limits.maxStorageBytes !== null && (
            <meter min={0} max={limits.maxStorageBytes} value={usage.bytes} aria-label={t('account.storageUsed')} />
          )}
        </dd>
        <dt>{t('account.files')}</dt>
        <dd>
          {limits.maxFiles === null
            ? t('account.noLimit', { used: usage.files })
            : t('account.of', { used: usage.files, limit: limits.maxFiles })}
          {limits.maxFiles !== null && <meter min={0} max={limits.maxFiles} value={usage.files} aria-label={t('account.filesUsed')} />}
        </dd>
        <dt>{t('account.largest')}</dt>
        <dd>{formatBytes(limits.maxFileSize)}</dd>
      </dl>
    </section>
  )
}

/** Usage against the plan, and the user's API tokens: create (value shown once), list, revoke. */
export function AccountPage() {
  const account = useLoad(() => ok(api.api.me.get()), [], {
    failure: t('account.loadFailed'),
    onError: (message) => notify('error', message),
  })
  const me = account.value
  const tokenList = useLoad(() => ok(api.api.tokens.get()), [], {
    failure: t('account.tokensFailed'),
    onError: (message) => notify('error', message),
  })
  const tokens = tokenList.value
  const [label, setLabel] = useState('')
  const [lifetime, setLifetime] = useState(2)
  const [limited, setLimited] = useState(false)
  const [chosen, setChosen] = useState<Set<Scope>>(new Set())
  const [created, setCreated] = useState<{ label: string; token: string } | null>(null)
  const [busy, setBusy] = useState(false)

  const create = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    try {
      const scopes = limited ? SCOPES.filter((scope) => chosen.has(scope)) : undefined
      const { data } = await ok(api.api.tokens.post({ label: label.trim(), ttl: LIFETIMES[lifetime]![1], scopes }))
      setCreated({ label: data.label, token: data.token })
      setLabel('')
      notify('ok', t('account.tokenCreated', { label: data.label }))
      void tokenList.reload()
    } catch (failure) {
      notify('error', errorText(failure, t('account.tokenNotCreated')))
    } finally {
      setBusy(false)
    }
  }

  const revoke = async (token: TokenDto) => {
    if (!confirm(t('account.revokeConfirm', { label: token.label }))) return
    try {
      await ok(api.api.tokens({ id: token.id }).delete())
      notify('ok', t('account.revoked', { label: token.label }))
      if (token.id === session.current()?.tokenId) return session.end()
      void tokenList.reload()
    } catch (failure) {
      notify('error', errorText(failure, t('account.notRevoked')))
    }
  }

  return (
    <main class="account">
      <h1>{me ? t('account.headingNamed', { name: me.name }) : t('account.heading')}</h1>
      <AdminChangesPanel />
      {me ? <Usage me={me} /> : <p aria-busy="true">{t('common.loading')}</p>}
      {me?.hasPassword && <EmailPanel me={me} onChanged={() => void account.reload()} />}
      {me && <MailLanguagePanel me={me} onChanged={() => void account.reload()} />}
      {me && <SsoLinkPanel me={me} onChanged={() => void account.reload()} />}
      {me && <TwoFactorPanel me={me} onChanged={() => void account.reload()} />}
      {me && <PasskeysPanel me={me} />}
      <section class="card" aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">{t('account.tokens')}</h2>
        <p>{tx('account.tokensHint', { header: <code>Authorization: Bearer …</code> })}</p>
        <form class="row wrap" onSubmit={create}>
          <div class="field">
            <label for="token-label">{t('account.label')}</label>
            <input
              id="token-label"
              required
              maxLength={TOKEN_LABEL_MAX}
              value={label}
              onInput={(event) => setLabel(event.currentTarget.value)}
              placeholder={t('account.labelExample')}
            />
          </div>
          <div class="field">
            <label for="token-lifetime">{t('account.lifetime')}</label>
            <select id="token-lifetime" value={String(lifetime)} onChange={(event) => setLifetime(Number(event.currentTarget.value))}>
              {LIFETIMES.map(([name], index) => (
                <option key={name} value={String(index)}>
                  {t(name)}
                </option>
              ))}
            </select>
          </div>
          <ScopeChoice
            admin={me?.admin ?? false}
            limited={limited}
            chosen={chosen}
            onChange={(nextLimited, nextChosen) => {
              setLimited(nextLimited)
              setChosen(nextChosen)
            }}
          />
          <button type="submit" class="primary" disabled={busy || !label.trim() || (limited && chosen.size === 0)}>
            {t('account.create')}
          </button>
        </form>
        {created && (
          <div class="created-token" role="alert">
            <p>{tx('account.copyNow', { label: <strong>{created.label}</strong> })}</p>
            <div class="row">
              <input readOnly value={created.token} aria-label={t('account.newToken')} onFocus={(event) => event.currentTarget.select()} />
              <button type="button" onClick={() => copyWithNotice(created.token, 'token')}>
                {t('common.copy')}
              </button>
              <button type="button" class="link" onClick={() => setCreated(null)}>
                {t('account.done')}
              </button>
            </div>
          </div>
        )}
        {tokens === null ? (
          <p aria-busy="true">{t('common.loading')}</p>
        ) : tokens.length === 0 ? (
          <p>{t('account.noTokens')}</p>
        ) : (
          <div class="table-wrap">
            <table>
              <TableHead
                columns={[t('account.label'), t('account.col.created'), t('account.col.expires'), t('account.col.may')]}
                unnamed={t('common.actions')}
              />
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.id}>
                    <td data-label={t('account.label')}>
                      {token.label}
                      {token.id === session.current()?.tokenId && <span class="badge">{t('account.thisSession')}</span>}
                    </td>
                    <td data-label={t('account.col.created')}>{formatDate(token.createdAt)}</td>
                    <td data-label={t('account.col.expires')}>{token.expiresAt ? formatDate(token.expiresAt) : t('account.never')}</td>
                    <td data-label={t('account.col.may')}>
                      {token.scopes === null ? t('account.everythingShort') : token.scopes.join(', ')}
                    </td>
                    <td>
                      <button
                        type="button"
                        class="danger"
                        onClick={() => revoke(token)}
                        aria-label={t('account.revokeNamed', { label: token.label })}
                      >
                        {t('account.revoke')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  )
}
