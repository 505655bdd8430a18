import { useState } from 'preact/hooks'
import type { MemberDto, TeamDto } from '../../../src/routes/teams/model'
import { api, errorText, ok } from './api'
import { formatDate } from './format'
import { TableHead } from './table-head'
import { TeamLog } from './team-log'
import { ConfirmDialog, Empty, notify } from './ui'
import { useLoad } from './use-api'

type Role = TeamDto['role']
const ROLES: readonly Role[] = ['owner', 'editor', 'viewer']
const ROLE_MEANINGS: Record<Role, string> = {
  owner: 'everything, also the members and the team itself',
  editor: 'uploads, changes and deletes files; links, rooms, requests',
  viewer: 'reads files, links and analytics; changes nothing',
}

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
      notify('ok', `${data.name} created; you are its owner`)
      setName('')
      props.onCreated()
    } catch (failure) {
      setError(errorText(failure, 'The team was not created'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} aria-labelledby="new-team-heading">
      <h2 id="new-team-heading">New team</h2>
      <label for="team-name">Name</label>
      <input id="team-name" value={name} onInput={(event) => setName(event.currentTarget.value)} required />
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy || !name.trim()}>
        {busy ? 'Creating…' : 'Create the team'}
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
      if (!data.pending) notify('ok', `${name} added as ${role}`)
      else if (data.pending.mailed) notify('ok', `${name} has no account yet: an invitation was mailed (it works for 7 days)`)
      else props.onLink(data.pending.url ?? '')
      setWho('')
      props.onAdded()
    } catch (failure) {
      setError(errorText(failure, 'The member was not added'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} class="row" aria-label={`Add a member to ${props.team.name}`}>
      <span>
        <label for={ids.who}>User name or email</label>
        <input id={ids.who} value={who} onInput={(event) => setWho(event.currentTarget.value)} required />
      </span>
      <span>
        <label for={ids.role}>Role</label>
        <select id={ids.role} value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </span>
      <button type="submit" disabled={busy || !who.trim()}>
        {busy ? 'Adding…' : 'Add'}
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
    failure: 'The members could not be loaded',
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
      `${member.name} is now ${role}`,
      'The role was not changed',
    )
  const remove = (member: MemberDto) =>
    member.pending
      ? run(
          () => ok(api.api.teams({ id: team.id }).invitations({ invitationId: member.pending!.invitationId }).delete()),
          `The invitation to ${member.name} was revoked`,
          'The invitation was not revoked',
        )
      : run(
          () =>
            ok(
              api.api
                .teams({ id: team.id })
                .members({ userId: member.userId ?? '' })
                .delete(),
            ),
          `${member.name} removed from ${team.name}`,
          'The member was not removed',
        ).then(props.onChanged)
  const headingId = `team-${team.id}-heading`
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {team.name} <span class="badge">your role: {team.role}</span>
      </h2>
      {members.error && (
        <p class="form-error" role="alert">
          {members.error}
        </p>
      )}
      {members.value && (
        <div class="table-wrap">
          <table>
            <TableHead columns={['Member', 'Role', 'Since', ...(owner ? ['Actions'] : [])]} />
            <tbody>
              {members.value.map((member) => (
                <tr key={member.userId ?? member.pending?.invitationId}>
                  <td data-label="Member">
                    {member.name}
                    {member.pending && <span class="badge">invited, until {formatDate(member.pending.expiresAt)}</span>}
                  </td>
                  <td data-label="Role">
                    {owner && !member.pending ? (
                      <select
                        aria-label={`Role of ${member.name}`}
                        value={member.role}
                        onChange={(event) => void changeRole(member, event.currentTarget.value as Role)}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      member.role
                    )}
                  </td>
                  <td data-label="Since">{formatDate(member.since)}</td>
                  {owner && (
                    <td data-label="Actions">
                      <button type="button" class="danger" onClick={() => setRemoving(member)}>
                        {member.pending ? `Revoke the invitation to ${member.name}` : `Remove ${member.name}`}
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
          This address has no account yet, and the server sends no mail: give them this link (it works once, for 7 days) to make an account
          that joins {team.name}: <code>{link}</code>
        </p>
      )}
      {owner && (
        <details onToggle={(event) => setLogOpen((event.currentTarget as HTMLDetailsElement).open)}>
          <summary>Log</summary>
          {logOpen && <TeamLog team={team} />}
        </details>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={removing?.pending ? `Revoke the invitation to ${removing.name}?` : `Remove ${removing?.name ?? ''} from ${team.name}?`}
        confirm="Remove"
        danger
        onConfirm={() => {
          if (removing) void remove(removing)
          setRemoving(null)
        }}
        onClose={() => setRemoving(null)}
      >
        <p>{removing?.pending ? 'The link stops working at once.' : 'Their team sessions and team tokens stop working at once.'}</p>
      </ConfirmDialog>
    </section>
  )
}

/** The user's teams (docs/teams.md): create one, and see and manage each one's members. */
export function TeamsPage(props: { onChanged: () => void }) {
  const teams = useLoad(() => ok(api.api.teams.get()), [], { failure: 'The teams could not be loaded' })
  const changed = () => {
    void teams.reload()
    props.onChanged()
  }
  return (
    <main class="teams">
      <h1>Teams</h1>
      <p>
        A team owns files, links, rooms and requests together. Choose a team in the header to act for it. The roles:{' '}
        {ROLES.map((role) => `${role}: ${ROLE_MEANINGS[role]}`).join('; ')}.
      </p>
      <section class="card">
        <CreateForm onCreated={changed} />
      </section>
      {teams.error && (
        <p class="form-error" role="alert">
          {teams.error}
        </p>
      )}
      {teams.value?.length === 0 && (
        <Empty title="No teams yet">
          <p>Create one above, then add your colleagues.</p>
        </Empty>
      )}
      {teams.value?.map((team) => (
        <TeamCard key={team.id} team={team} onChanged={changed} />
      ))}
    </main>
  )
}
