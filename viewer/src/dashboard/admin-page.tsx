import { useState } from 'preact/hooks'
import type { AdminTeamDto, AdminTokenDto, AdminUserDto } from '../../../src/routes/admin/model'
import { parseSize } from '../../../src/shared/sizes'
import { api, errorText, ok } from './api'
import { BrandingPanel } from './branding-panel'
import { formatBytes, formatDate } from './format'
import { ConfirmDialog, copyWithNotice, notify } from './ui'
import { useLoad } from './use-api'
import { TableHead } from './table-head'
import { t, tx } from './i18n'

/** A limit as typed ("5 GB", "1000", "" for unlimited): the number, null (unlimited), or undefined when it is not one. */
/** Whether the server has single sign-on (the page says so), for the per-user link button. */
const SSO_ON = (document.getElementById('app')?.dataset.sso ?? '') !== ''
/** Whether the server can send mail (PDFSHARE_SMTP_URL): invitations by mail, the Mail card. */
const MAIL_ON = document.getElementById('app')?.dataset.mail === 'true'

function limitFrom(text: string, parse: (text: string) => number | undefined): number | null | undefined {
  const trimmed = text.trim()
  return trimmed === '' ? null : parse(trimmed)
}
const wholeNumber = (text: string) => (/^\d+$/.test(text) ? Number(text) : undefined)

type Limits = AdminUserDto['limits']
type Limited = { id: string; name: string; limits: Limits }

/** A user's or a team's limits; `save` sends them to the API and answers the owner as it is now. */
function LimitsForm<T extends Limited>(props: { user: T; save: (limits: Limits) => Promise<{ data: T }>; onSaved: (user: T) => void }) {
  const { limits } = props.user
  const [storage, setStorage] = useState(limits.maxStorageBytes === null ? '' : formatBytes(limits.maxStorageBytes))
  const [files, setFiles] = useState(limits.maxFiles === null ? '' : String(limits.maxFiles))
  const save = async (event: Event) => {
    event.preventDefault()
    const maxStorageBytes = limitFrom(storage, parseSize)
    const maxFiles = limitFrom(files, wholeNumber)
    if (maxStorageBytes === undefined) return notify('error', t('adm.storageFormat'))
    if (maxFiles === undefined) return notify('error', t('adm.filesFormat'))
    try {
      const { data } = await props.save({ maxStorageBytes, maxFiles })
      notify('ok', t('adm.limitsSaved', { name: data.name }))
      props.onSaved(data)
    } catch (failure) {
      notify('error', errorText(failure, t('adm.limitsNotSaved')))
    }
  }
  return (
    <form class="row wrap limits" onSubmit={save}>
      <div class="field">
        <label for={`storage-${props.user.id}`}>{t('adm.storageLimit')}</label>
        <input
          id={`storage-${props.user.id}`}
          value={storage}
          placeholder={t('adm.noLimit')}
          onInput={(event) => setStorage(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={`files-${props.user.id}`}>{t('adm.filesLimit')}</label>
        <input
          id={`files-${props.user.id}`}
          value={files}
          inputMode="numeric"
          placeholder={t('adm.noLimit')}
          onInput={(event) => setFiles(event.currentTarget.value)}
        />
      </div>
      <button type="submit">{t('adm.saveLimits')}</button>
    </form>
  )
}

function Users(props: { me: string }) {
  const users = useLoad(() => ok(api.api.admin.users.get()), [], { failure: t('adm.usersFailed') })
  const [removing, setRemoving] = useState<AdminUserDto | null>(null)
  const [withFiles, setWithFiles] = useState(false)
  const [editing, setEditing] = useState<string | null>(null)
  const replace = (user: AdminUserDto) => users.set((list) => (list ? list.map((one) => (one.id === user.id ? user : one)) : null))
  const change = async (
    user: AdminUserDto,
    change: { disabled?: boolean; admin?: boolean; twoFactor?: false; ssoEmail?: string | null },
    done: string,
  ) => {
    try {
      const { data } = await ok(api.api.admin.users({ id: user.id }).patch(change))
      notify('ok', done)
      replace(data)
    } catch (failure) {
      notify('error', errorText(failure, t('adm.userNotChanged')))
    }
  }
  const remove = async () => {
    const user = removing
    setRemoving(null)
    if (!user) return
    try {
      const { data } = await ok(api.api.admin.users({ id: user.id }).delete(undefined, { query: { deleteFiles: withFiles || undefined } }))
      notify('ok', removalText(user.name, data))
      users.set((list) => (list ? list.filter((one) => one.id !== user.id) : null))
    } catch (failure) {
      notify('error', errorText(failure, t('adm.userNotRemoved')))
    }
  }
  const list = users.value
  return (
    <section class="card" aria-labelledby="users-heading">
      <h2 id="users-heading">{t('adm.users')}</h2>
      {users.error ? (
        <p class="form-error" role="alert">
          {users.error}
        </p>
      ) : list === null ? (
        <p aria-busy="true">{t('common.loading')}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[t('rooms.name'), t('account.files'), t('account.storage'), t('adm.col.lastSignIn'), t('adm.col.twoFactors')]}
              unnamed={t('common.actions')}
            />
            <tbody>
              {list.map((user) => (
                <tr key={user.id}>
                  <td data-label={t('rooms.name')}>
                    {user.name}
                    {user.admin && <span class="badge">{t('adm.badge.admin')}</span>}
                    {user.disabled && <span class="badge warn">{t('adm.badge.disabled')}</span>}
                    {user.name === props.me && <span class="badge">{t('adm.badge.you')}</span>}
                    {editing === user.id && (
                      <LimitsForm
                        user={user}
                        save={(limits) => ok(api.api.admin.users({ id: user.id }).patch(limits))}
                        onSaved={(saved) => {
                          replace(saved)
                          setEditing(null)
                        }}
                      />
                    )}
                  </td>
                  <td data-label={t('account.files')}>
                    {user.usage.files}
                    {user.limits.maxFiles !== null && ` ${t('adm.of', { limit: user.limits.maxFiles })}`}
                  </td>
                  <td data-label={t('account.storage')}>
                    {formatBytes(user.usage.bytes)}
                    {user.limits.maxStorageBytes !== null && ` ${t('adm.of', { limit: formatBytes(user.limits.maxStorageBytes) })}`}
                  </td>
                  <td data-label={t('adm.col.lastSignIn')}>{user.lastSignInAt ? formatDate(user.lastSignInAt) : t('account.never')}</td>
                  <td data-label={t('adm.col.twoFactors')}>
                    {user.twoFactor ? t('adm.codeApp') : t('common.off')}
                    {user.passkeys > 0 && `, ${t('adm.passkeys', { count: user.passkeys })}`}
                    {user.ssoEmail && (
                      <span class="hint">
                        {' '}
                        {t('adm.ssoAsked', { email: user.ssoEmail, allowed: user.ssoEmailAllowedByUser ? 'yes' : 'no' })}
                      </span>
                    )}
                  </td>
                  <td class="actions">
                    {(user.twoFactor || user.passkeys > 0) && (
                      <button
                        type="button"
                        onClick={() => {
                          if (!confirm(t('adm.resetConfirm', { name: user.name }))) return
                          void change(user, { twoFactor: false }, t('adm.resetDone', { name: user.name }))
                        }}
                        aria-label={t('adm.resetLabel', { name: user.name })}
                      >
                        {t('adm.reset2fa')}
                      </button>
                    )}
                    {SSO_ON && (
                      <button
                        type="button"
                        onClick={() => {
                          const email = prompt(t('adm.ssoPrompt', { name: user.name }), user.ssoEmail ?? '')
                          if (email === null) return
                          void change(user, { ssoEmail: email.trim() === '' ? null : email.trim() }, t('adm.ssoSaved', { name: user.name }))
                        }}
                        aria-label={t('adm.ssoLabel', { name: user.name })}
                      >
                        {t('adm.ssoLink')}
                      </button>
                    )}
                    <button
                      type="button"
                      onClick={() => setEditing(editing === user.id ? null : user.id)}
                      aria-label={t('adm.limitsOf', { name: user.name })}
                    >
                      {t('adm.limits')}
                    </button>
                    <button
                      type="button"
                      onClick={() =>
                        change(
                          user,
                          { disabled: !user.disabled },
                          t('adm.toggled', { name: user.name, enabled: user.disabled ? 'yes' : 'no' }),
                        )
                      }
                      aria-label={t('adm.enableLabel', { name: user.name, enable: user.disabled ? 'yes' : 'no' })}
                    >
                      {user.disabled ? t('adm.enable') : t('adm.disable')}
                    </button>
                    <button
                      type="button"
                      onClick={() =>
                        change(user, { admin: !user.admin }, t('adm.adminChanged', { name: user.name, admin: user.admin ? 'no' : 'yes' }))
                      }
                      aria-label={
                        user.admin ? t('adm.removeAdminLabel', { name: user.name }) : t('adm.makeAdminLabel', { name: user.name })
                      }
                    >
                      {user.admin ? t('adm.removeAdmin') : t('adm.makeAdmin')}
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => {
                        setWithFiles(false)
                        setRemoving(user)
                      }}
                      aria-label={t('teams.remove', { name: user.name })}
                    >
                      {t('common.remove')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('adm.removeUser', { name: removing?.name ?? '' })}
        confirm={t('common.remove')}
        danger
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      >
        <p>{t('adm.removeText')}</p>
        <p>{t('adm.removeTeams')}</p>
        {removing && (
          <label class="check">
            <input type="checkbox" checked={withFiles} onChange={(event) => setWithFiles(event.currentTarget.checked)} />
            {t('adm.withTeamFiles')}
          </label>
        )}
      </ConfirmDialog>
    </section>
  )
}

function Invitations() {
  const pending = useLoad(() => ok(api.api.admin.invitations.get()), [], { failure: t('inv.failed') })
  const [admin, setAdmin] = useState(false)
  const [email, setEmail] = useState('')
  const [created, setCreated] = useState<string | null>(null)
  const invite = async (event: Event) => {
    event.preventDefault()
    try {
      const { data } = await ok(api.api.admin.invitations.post({ admin, ...(email.trim() !== '' && { email: email.trim() }) }))
      setCreated(data.url)
      setEmail('')
      notify('ok', data.mailedTo ? t('inv.mailed', { email: data.mailedTo }) : t('inv.created'))
      void pending.reload()
    } catch (failure) {
      notify('error', errorText(failure, t('inv.notCreated')))
    }
  }
  const revoke = async (id: string) => {
    try {
      await ok(api.api.admin.invitations({ id }).delete())
      notify('ok', t('inv.revoked'))
      void pending.reload()
    } catch (failure) {
      notify('error', errorText(failure, t('inv.notRevoked')))
    }
  }
  return (
    <section class="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">{t('inv.heading')}</h2>
      <p>{t('inv.text')}</p>
      <form class="row wrap" onSubmit={invite}>
        {MAIL_ON && (
          <>
            <label for="invite-email">{t('join.email')}</label>
            <input
              id="invite-email"
              type="email"
              autocomplete="off"
              placeholder="they@example.com"
              value={email}
              onInput={(event) => setEmail(event.currentTarget.value)}
            />
          </>
        )}
        <label class="check">
          <input type="checkbox" checked={admin} onChange={(event) => setAdmin(event.currentTarget.checked)} />
          {t('inv.asAdmin')}
        </label>
        <button type="submit" class="primary">
          {t('inv.create')}
        </button>
      </form>
      {created && (
        <div class="created-token" role="alert">
          <p>{t('inv.copyNow')}</p>
          <div class="row">
            <input readOnly value={created} aria-label={t('inv.link')} onFocus={(event) => event.currentTarget.select()} />
            <button type="button" onClick={() => copyWithNotice(created, 'link')}>
              {t('common.copy')}
            </button>
            <button type="button" class="link" onClick={() => setCreated(null)}>
              {t('account.done')}
            </button>
          </div>
        </div>
      )}
      {pending.value && pending.value.length > 0 && (
        <ul class="plain">
          {pending.value.map((invitation) => (
            <li key={invitation.id} class="row">
              <span>
                {invitation.team
                  ? t('inv.teamItem', {
                      role: invitation.team.role,
                      made: formatDate(invitation.createdAt),
                      until: formatDate(invitation.expiresAt),
                    })
                  : t('inv.item', {
                      admin: invitation.admin ? 'yes' : 'no',
                      made: formatDate(invitation.createdAt),
                      until: formatDate(invitation.expiresAt),
                    })}
              </span>
              <button type="button" class="danger" onClick={() => revoke(invitation.id)}>
                {t('account.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Tokens() {
  const tokens = useLoad(() => ok(api.api.admin.tokens.get({ query: {} })), [], { failure: t('tok.failed') })
  const revoke = async (token: AdminTokenDto) => {
    if (!confirm(t('tok.confirm', { label: token.label || t('tok.unlabelled'), name: token.user.name }))) return
    try {
      await ok(api.api.admin.tokens({ id: token.id }).delete())
      notify('ok', t('tok.revoked'))
      void tokens.reload()
    } catch (failure) {
      notify('error', errorText(failure, t('account.notRevoked')))
    }
  }
  const active = tokens.value?.filter((token) => token.status === 'active') ?? null
  return (
    <section class="card" aria-labelledby="all-tokens-heading">
      <h2 id="all-tokens-heading">{t('tok.heading')}</h2>
      {active === null ? (
        <p aria-busy="true">{t('common.loading')}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[t('act.user'), t('account.label'), t('account.col.may'), t('account.col.expires')]}
              unnamed={t('common.actions')}
            />
            <tbody>
              {active.map((token) => (
                <tr key={token.id}>
                  <td data-label={t('act.user')}>{token.user.name}</td>
                  <td data-label={t('account.label')}>{token.label || '—'}</td>
                  <td data-label={t('account.col.may')}>
                    {token.scopes === null ? t('account.everythingShort') : token.scopes.join(', ')}
                  </td>
                  <td data-label={t('account.col.expires')}>{token.expiresAt ? formatDate(token.expiresAt) : t('account.never')}</td>
                  <td>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => revoke(token)}
                      aria-label={t('tok.revokeLabel', { label: token.label || t('tok.unlabelled'), name: token.user.name })}
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
  )
}

/** Admins only: users, invitations and every token, without a shell on the server. */
/** The server's mail: a test mail that shows what the SMTP server said, and the latest of the outbox. */
function Mail() {
  const outbox = useLoad(() => ok(api.api.admin.mail.get()), [], { failure: t('mail.failed') })
  const [to, setTo] = useState('')
  const [answer, setAnswer] = useState<{ accepted: boolean; response: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const send = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    try {
      const { data } = await ok(api.api.admin.mail.test.post({ to: to.trim() }))
      setAnswer(data)
    } catch (failure) {
      setAnswer({ accepted: false, response: errorText(failure, t('mail.testFailed')) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <section class="card" aria-labelledby="mail-heading">
      <h2 id="mail-heading">{t('mail.heading')}</h2>
      {!MAIL_ON ? (
        <p>{tx('mail.off', { url: <code>PDFSHARE_SMTP_URL</code>, from: <code>PDFSHARE_MAIL_FROM</code> })}</p>
      ) : (
        <>
          <form class="row wrap" onSubmit={send}>
            <label for="test-mail-to">{t('mail.testTo')}</label>
            <input id="test-mail-to" type="email" required value={to} onInput={(event) => setTo(event.currentTarget.value)} />
            <button type="submit" disabled={busy}>
              {t('mail.send')}
            </button>
          </form>
          {answer && (
            <p role="status" class={answer.accepted ? '' : 'form-error'}>
              {tx('mail.answer', { accepted: answer.accepted ? 'yes' : 'no', response: <code>{answer.response}</code> })}
            </p>
          )}
          {outbox.value && outbox.value.length > 0 && (
            <div class="table-wrap">
              <table>
                <TableHead columns={[t('mail.col.to'), t('visits.col.what'), t('mail.col.state'), t('mail.col.last')]} />
                <tbody>
                  {outbox.value.map((mail) => (
                    <tr key={mail.id}>
                      <td data-label={t('mail.col.to')}>{mail.to}</td>
                      <td data-label={t('visits.col.what')}>{mail.subject}</td>
                      <td data-label={t('mail.col.state')}>
                        {mail.status}
                        {mail.attempts > 1 && ` ${t('mail.tries', { tries: mail.attempts })}`}
                      </td>
                      <td data-label={t('mail.col.last')}>{mail.lastResponse ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  )
}

/** Every team with its members, usage and limits, which an admin sets here; never its files (docs/teams.md, Quotas). */
function Teams() {
  const teams = useLoad(() => ok(api.api.admin.teams.get()), [], { failure: t('teams.loadFailed') })
  const replace = (saved: AdminTeamDto) => teams.set((list) => list?.map((team) => (team.id === saved.id ? saved : team)) ?? null)
  return (
    <section class="card" aria-labelledby="admin-teams-heading">
      <h2 id="admin-teams-heading">{t('title.teams')}</h2>
      {teams.error && (
        <p class="form-error" role="alert">
          {teams.error}
        </p>
      )}
      {teams.value?.length === 0 && <p>{t('adm.teamsNone')}</p>}
      {teams.value && teams.value.length > 0 && (
        <div class="table-wrap">
          <table>
            <TableHead columns={[t('adm.col.team'), t('adm.col.members'), t('adm.col.usage'), t('adm.limits')]} />
            <tbody>
              {teams.value.map((team) => (
                <tr key={team.id}>
                  <td data-label={t('adm.col.team')}>
                    {team.name}
                    <span class="sub">{t('adm.teamCreated', { date: formatDate(team.createdAt) })}</span>
                  </td>
                  <td data-label={t('adm.col.members')}>{t('adm.members', { members: team.members, owners: team.owners })}</td>
                  <td data-label={t('adm.col.usage')}>
                    {t('adm.usage', { files: team.usage.files, size: formatBytes(team.usage.bytes) })}
                  </td>
                  <td data-label={t('adm.limits')}>
                    <LimitsForm user={team} save={(limits) => ok(api.api.admin.teams({ id: team.id }).patch(limits))} onSaved={replace} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

export function AdminPage(props: { me: string }) {
  return (
    <main class="admin">
      <h1>{t('title.admin')}</h1>
      <Users me={props.me} />
      <Teams />
      <Invitations />
      <Tokens />
      <Mail />
      <BrandingPanel />
    </main>
  )
}

/** What a removal did, in one line: the user's files, the teams deleted with them, the members made owners. */
function removalText(
  name: string,
  removed: { removedFiles: number; deletedTeams: { name: string }[]; promotedOwners: { name: string; teamName: string }[] },
): string {
  const parts = [
    t('adm.removed', { name, files: removed.removedFiles }),
    ...removed.deletedTeams.map((team) => t('adm.teamDeleted', { team: team.name })),
    ...removed.promotedOwners.map((p) => t('adm.ownerPromoted', { name: p.name, team: p.teamName })),
  ]
  return parts.join('; ')
}
