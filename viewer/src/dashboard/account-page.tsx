import { useState } from 'preact/hooks'
import type { MeDto, TokenDto } from '../../../src/routes/auth/model'
import { type Scope, SCOPE_MEANINGS, SCOPES, TOKEN_LABEL_MAX } from '../../../src/shared/account-shapes'
import { api, errorText, ok } from './api'
import { formatBytes, formatDate } from './format'
import { session } from './session'
import { copyWithNotice, notify } from './ui'
import { AdminChangesPanel } from './admin-changes-panel'
import { EmailPanel } from './email-panel'
import { SsoLinkPanel } from './sso-link-panel'
import { PasskeysPanel } from './passkeys-panel'
import { TwoFactorPanel } from './two-factor-panel'
import { useLoad } from './use-api'
import { TableHead } from './table-head'

/** Lifetimes as the API (and the CLI's --ttl) spell them. */
const LIFETIMES: [label: string, ttl: string][] = [
  ['1 day', '1d'],
  ['30 days', '30d'],
  ['90 days', '90d'],
  ['1 year', '1y'],
  ['Never expires', 'never'],
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
      <legend>What it may do</legend>
      <label>
        <input type="radio" name="token-scope" checked={!props.limited} onChange={() => props.onChange(false, new Set(props.chosen))} />
        Everything you can do
      </label>
      <label>
        <input type="radio" name="token-scope" checked={props.limited} onChange={() => props.onChange(true, new Set(props.chosen))} />
        Only:
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
      <h2 id="usage-heading">Usage</h2>
      <dl class="usage">
        <dt>Storage</dt>
        <dd>
          {formatBytes(usage.bytes)} {limits.maxStorageBytes === null ? '(no limit)' : `of ${formatBytes(limits.maxStorageBytes)}`}
          {limits.maxStorageBytes !== null && <meter min={0} max={limits.maxStorageBytes} value={usage.bytes} aria-label="Storage used" />}
        </dd>
        <dt>Files</dt>
        <dd>
          {usage.files} {limits.maxFiles === null ? '(no limit)' : `of ${limits.maxFiles}`}
          {limits.maxFiles !== null && <meter min={0} max={limits.maxFiles} value={usage.files} aria-label="Files used" />}
        </dd>
        <dt>Largest PDF</dt>
        <dd>{formatBytes(limits.maxFileSize)}</dd>
      </dl>
    </section>
  )
}

/** Usage against the plan, and the user's API tokens: create (value shown once), list, revoke. */
export function AccountPage() {
  const account = useLoad(() => ok(api.api.me.get()), [], {
    failure: 'Your account could not be loaded',
    onError: (message) => notify('error', message),
  })
  const me = account.value
  const tokenList = useLoad(() => ok(api.api.tokens.get()), [], {
    failure: 'The tokens could not be loaded',
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
      notify('ok', `Token “${data.label}” created; copy it now, it is shown only once`)
      void tokenList.reload()
    } catch (failure) {
      notify('error', errorText(failure, 'The token was not created'))
    } finally {
      setBusy(false)
    }
  }

  const revoke = async (token: TokenDto) => {
    if (!confirm(`Revoke “${token.label}”? Scripts using it stop working at once.`)) return
    try {
      await ok(api.api.tokens({ id: token.id }).delete())
      notify('ok', `“${token.label}” revoked`)
      if (token.id === session.current()?.tokenId) return session.end()
      void tokenList.reload()
    } catch (failure) {
      notify('error', errorText(failure, 'The token was not revoked'))
    }
  }

  return (
    <main class="account">
      <h1>Account{me ? `: ${me.name}` : ''}</h1>
      <AdminChangesPanel />
      {me ? <Usage me={me} /> : <p aria-busy="true">Loading…</p>}
      {me?.hasPassword && <EmailPanel me={me} onChanged={() => void account.reload()} />}
      {me && <SsoLinkPanel me={me} onChanged={() => void account.reload()} />}
      {me && <TwoFactorPanel me={me} onChanged={() => void account.reload()} />}
      {me && <PasskeysPanel me={me} />}
      <section class="card" aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">API tokens</h2>
        <p>
          For scripts and curl: send one as <code>Authorization: Bearer …</code>.
        </p>
        <form class="row wrap" onSubmit={create}>
          <div class="field">
            <label for="token-label">Label</label>
            <input
              id="token-label"
              required
              maxLength={TOKEN_LABEL_MAX}
              value={label}
              onInput={(event) => setLabel(event.currentTarget.value)}
              placeholder="e.g. CI upload job"
            />
          </div>
          <div class="field">
            <label for="token-lifetime">Lifetime</label>
            <select id="token-lifetime" value={String(lifetime)} onChange={(event) => setLifetime(Number(event.currentTarget.value))}>
              {LIFETIMES.map(([name], index) => (
                <option key={name} value={String(index)}>
                  {name}
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
            Create token
          </button>
        </form>
        {created && (
          <div class="created-token" role="alert">
            <p>
              <strong>{created.label}</strong>: copy this token now. It is not shown again.
            </p>
            <div class="row">
              <input readOnly value={created.token} aria-label="The new token" onFocus={(event) => event.currentTarget.select()} />
              <button type="button" onClick={() => copyWithNotice(created.token, 'token')}>
                Copy
              </button>
              <button type="button" class="link" onClick={() => setCreated(null)}>
                Done
              </button>
            </div>
          </div>
        )}
        {tokens === null ? (
          <p aria-busy="true">Loading…</p>
        ) : tokens.length === 0 ? (
          <p>No tokens.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <TableHead columns={['Label', 'Created', 'Expires', 'May do']} unnamed="Actions" />
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.id}>
                    <td data-label="Label">
                      {token.label}
                      {token.id === session.current()?.tokenId && <span class="badge">this session</span>}
                    </td>
                    <td data-label="Created">{formatDate(token.createdAt)}</td>
                    <td data-label="Expires">{token.expiresAt ? formatDate(token.expiresAt) : 'never'}</td>
                    <td data-label="May do">{token.scopes === null ? 'everything' : token.scopes.join(', ')}</td>
                    <td>
                      <button type="button" class="danger" onClick={() => revoke(token)} aria-label={`Revoke ${token.label}`}>
                        Revoke
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
