import { useEffect, useState } from 'preact/hooks'
import type { TeamDto } from '../../../src/routes/teams/model'
import { api, errorText, ok } from './api'
import { type Session, session } from './session'
import { notify } from './ui'
import { t } from './i18n'

const PERSONAL = ''

/** Opens a team session for `team` from the sign-in session and acts for the team from now on. */
async function actForTeam(team: TeamDto): Promise<void> {
  const { data } = await ok(api.api.teams({ id: team.id }).session.post())
  session.actFor({ id: data.team.id, name: data.team.name, role: data.team.role, token: data.token })
}

/**
 * The header's team switcher (docs/teams.md, The dashboard): personal, or one of the user's teams with their
 * role. The choice is remembered for this browser and taken up again at the next sign-in; a team the user has
 * left is forgotten. Only a sign-in session may act for a team: a pasted API token has no switcher.
 */
export function TeamSwitcher(props: { current: Session; teams: TeamDto[] | null; settled: boolean }) {
  const { current, teams, settled } = props
  const [busy, setBusy] = useState(false)
  const remembered = session.rememberedTeam()
  useEffect(() => {
    if (current.kind !== 'login' || current.team || !remembered || !teams || !settled) return
    const team = teams.find((each) => each.id === remembered)
    if (team) void actForTeam(team).catch(() => session.actFor(null))
    else session.actFor(null)
  }, [current.token, teams, settled, remembered])
  if (current.kind !== 'login' || !teams || teams.length === 0) return null

  const choose = async (id: string) => {
    setBusy(true)
    // A file or a room of one owner is not the other's: back to the list it came from.
    const list = /^#\/(files|rooms)\/./.exec(location.hash)
    if (list) location.hash = `#/${list[1]}`
    try {
      const team = teams.find((each) => each.id === id)
      if (team) await actForTeam(team)
      else session.actFor(null)
      notify('ok', team ? t('team.nowActing', { team: team.name, role: team.role }) : t('team.nowPersonal'))
    } catch (failure) {
      notify('error', errorText(failure, t('team.chooseFailed')))
    } finally {
      setBusy(false)
    }
  }
  return (
    <span class="team-switcher">
      <label for="team-switcher">{t('team.actingFor')}</label>
      <select
        id="team-switcher"
        value={current.team?.id ?? PERSONAL}
        disabled={busy}
        onChange={(event) => void choose(event.currentTarget.value)}
      >
        <option value={PERSONAL}>{t('team.personal', { name: current.name })}</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {t('team.option', { team: team.name, role: team.role })}
          </option>
        ))}
      </select>
    </span>
  )
}

/** Said where a page's changing controls are hidden: the tab acts for a team as a viewer. */
export function ViewerNote() {
  const team = session.current()?.team
  return <p class="hint">{t('team.viewerNote', { team: team?.name ?? t('team.thisTeam') })}</p>
}
