import { useState } from 'preact/hooks'
import type { MemberDto, TeamDto } from '../../../src/routes/teams/model'
import { api, errorText, ok } from './api'
import { formatDate } from './format'
import { TableHead } from './table-head'
import { TeamLog } from './team-log'
import { ConfirmDialog, Empty, notify } from './ui'
import { useLoad } from './use-api'
import { t } from './i18n'

type Role = TeamDto['role']
const ROLES: readonly Role[] = ['owner', 'editor', 'viewer']

/** A new team, with the user as its owner. */
function CreateForm(props: { onCreated: () => void }) {
  const [name, setName] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError('')
    try {
      const { data } = await ok(api.api.teams.post({ name: name.trim() }))
      notify('ok', t('teams.created', { name: data.name }))
      setName('')
      props.onCreated()
    } catch (failure) {
      setError(errorText(failure, t('teams.notCreated')))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} aria-labelledby="new-team-heading">
      <h2 id="new-team-heading">{t('teams.new')}</h2>
      <label for="team-name">{t('rooms.name')}</label>
      <input id="team-name" value={name} onInput={(event) => setName(event.currentTarget.value)} required />
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || !name.trim()}>
        {busy ? t('rooms.creating') : t('teams.create')}
      </button>
    </form>
  )
}

/** Adds an existing account to the team, by user name or email; invites an email that has none (owners only). */
function AddMember(props: { team: TeamDto; onAdded: () => void; onLink: (url: string) => void }) {
  const [who, setWho] = useState('')
  const [role, setRole] = useState<Role>('editor')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const ids = { who: `add-who-${props.team.id}`, role: `add-role-${props.team.id}` }
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError('')
    const name = who.trim()
    try {
      const { data } = await ok(
        api.api.teams({ id: props.team.id }).members.post(name.includes('@') ? { email: name, role } : { username: name, role }),
      )
      if (!data.pending) notify('ok', t('teams.added', { name, role }))
      else if (data.pending.mailed) notify('ok', t('teams.invitedMailed', { name }))
      else props.onLink(data.pending.url ?? '')
      setWho('')
      props.onAdded()
    } catch (failure) {
      setError(errorText(failure, t('teams.notAdded')))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} class="row" aria-label={t('teams.addTo', { team: props.team.name })}>
      <span>
        <label for={ids.who}>{t('teams.who')}</label>
        <input id={ids.who} value={who} onInput={(event) => setWho(event.currentTarget.value)} required />
      </span>
      <span>
        <label for={ids.role}>{t('teams.roleLabel')}</label>
        <select id={ids.role} value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t('teams.role', { role: r })}
            </option>
          ))}
        </select>
      </span>
      <button type="submit" disabled={busy || !who.trim()}>
        {busy ? t('teams.adding') : t('roomAdd.add')}
      </button>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}

/** One team: its members with their roles; an owner changes roles, adds and removes members. */
function TeamCard(props: { team: TeamDto; onChanged: () => void }) {
  const { team } = props
  const members = useLoad(() => ok(api.api.teams({ id: team.id }).members.get()), [team.id], {
    failure: t('teams.membersFailed'),
  })
  const [removing, setRemoving] = useState<MemberDto | null>(null)
  const [logOpen, setLogOpen] = useState(false)
  const [link, setLink] = useState('')
  const owner = team.role === 'owner'
  const run = async (work: () => Promise<unknown>, done: string, failure: string) => {
    try {
      await work()
      notify('ok', done)
      await members.reload()
    } catch (error) {
      notify('error', errorText(error, failure))
    }
  }
  const changeRole = (member: MemberDto, role: Role) =>
    run(
      () =>
        ok(
          api.api
            .teams({ id: team.id })
            .members({ userId: member.userId ?? '' })
            .patch({ role }),
        ),
      t('teams.nowRole', { name: member.name, role }),
      t('teams.roleNotChanged'),
    )
  const remove = (member: MemberDto) =>
    member.pending
      ? run(
          () => ok(api.api.teams({ id: team.id }).invitations({ invitationId: member.pending!.invitationId }).delete()),
          t('teams.invitationRevoked', { name: member.name }),
          t('teams.invitationNotRevoked'),
        )
      : run(
          () =>
            ok(
              api.api
                .teams({ id: team.id })
                .members({ userId: member.userId ?? '' })
                .delete(),
            ),
          t('teams.removed', { name: member.name, team: team.name }),
          t('teams.notRemoved'),
        ).then(props.onChanged)
  const headingId = `team-${team.id}-heading`
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {team.name} <span class="badge">{t('teams.yourRole', { role: team.role })}</span>
      </h2>
      {members.error && (
        <p class="form-error" role="alert">
          {members.error}
        </p>
      )}
      {members.value && (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[t('teams.col.member'), t('teams.roleLabel'), t('teams.col.since'), ...(owner ? [t('common.actions')] : [])]}
            />
            <tbody>
              {members.value.map((member) => (
                <tr key={member.userId ?? member.pending?.invitationId}>
                  <td data-label={t('teams.col.member')}>
                    {member.name}
                    {member.pending && <span class="badge">{t('teams.invitedUntil', { date: formatDate(member.pending.expiresAt) })}</span>}
                  </td>
                  <td data-label={t('teams.roleLabel')}>
                    {owner && !member.pending ? (
                      <select
                        aria-label={t('teams.roleOf', { name: member.name })}
                        value={member.role}
                        onChange={(event) => void changeRole(member, event.currentTarget.value as Role)}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {t('teams.role', { role: r })}
                          </option>
                        ))}
                      </select>
                    ) : (
                      t('teams.role', { role: member.role })
                    )}
                  </td>
                  <td data-label={t('teams.col.since')}>{formatDate(member.since)}</td>
                  {owner && (
                    <td data-label={t('common.actions')}>
                      <button type="button" class="danger" onClick={() => setRemoving(member)}>
                        {member.pending ? t('teams.revokeInvitation', { name: member.name }) : t('teams.remove', { name: member.name })}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {owner && (
        <AddMember
          team={team}
          onAdded={() => void members.reload()}
          onLink={(url) => {
            setLink(url)
            void members.reload()
          }}
        />
      )}
      {link && (
        <p class="hint" role="status">
          {t('teams.inviteLink', { team: team.name })} <code>{link}</code>
        </p>
      )}
      {owner && (
        <details onToggle={(event) => setLogOpen((event.currentTarget as HTMLDetailsElement).open)}>
          <summary>{t('teams.logTitle')}</summary>
          {logOpen && <TeamLog team={team} />}
        </details>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={
          removing?.pending
            ? t('teams.confirmRevoke', { name: removing.name })
            : t('teams.confirm', { name: removing?.name ?? '', team: team.name })
        }
        confirm={t('common.remove')}
        danger
        onConfirm={() => {
          if (removing) void remove(removing)
          setRemoving(null)
        }}
        onClose={() => setRemoving(null)}
      >
        <p>{removing?.pending ? t('teams.confirmRevokeText') : t('teams.confirmText')}</p>
      </ConfirmDialog>
    </section>
  )
}

/** The user's teams (docs/teams.md): create one, and see and manage each one's members. */
export function TeamsPage(props: { onChanged: () => void }) {
  const teams = useLoad(() => ok(api.api.teams.get()), [], { failure: t('teams.loadFailed') })
  const changed = () => {
    void teams.reload()
    props.onChanged()
  }
  return (
    <main class="teams">
      <h1>{t('title.teams')}</h1>
      <p>{t('teams.intro')}</p>
      <section class="card">
        <CreateForm onCreated={changed} />
      </section>
      {teams.error && (
        <p class="form-error" role="alert">
          {teams.error}
        </p>
      )}
      {teams.value?.length === 0 && (
        <Empty title={t('teams.empty')}>
          <p>{t('teams.emptyText')}</p>
        </Empty>
      )}
      {teams.value?.map((team) => (
        <TeamCard key={team.id} team={team} onChanged={changed} />
      ))}
    </main>
  )
}
