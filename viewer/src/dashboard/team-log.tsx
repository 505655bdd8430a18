import type { TeamDto } from '../../../src/routes/teams/model'
import { api, ok } from './api'
import { AuditTable } from './audit-table'
import { t } from './i18n'
import { usePages } from './use-api'

const PAGE_SIZE = 20

/**
 * A team's log, for its owners (docs/teams.md, The team's log): what was done for the team or to it, newest
 * first, 20 at a time. Shown only once opened, so the Teams page reads no log it does not show.
 */
export function TeamLog(props: { team: TeamDto }) {
  const { team } = props
  const list = usePages((cursor) => ok(api.api.teams({ id: team.id }).audit.get({ query: { limit: PAGE_SIZE, cursor } })), [team.id], {
    failure: t('teams.logFailed'),
  })
  const entries = list.items
  if (list.error) {
    return (
      <p class="form-error" role="alert">
        {list.error}
      </p>
    )
  }
  if (entries === null) return <p aria-busy="true">{t('common.loading')}</p>
  if (entries.length === 0) return <p class="hint">{t('teams.logEmpty')}</p>
  return (
    <>
      <AuditTable entries={entries} caption={t('teams.logCaption', { team: team.name })} />
      {list.hasMore && (
        <button type="button" disabled={list.loadingMore} onClick={list.more}>
          {list.loadingMore ? t('common.loading') : t('common.showMore')}
        </button>
      )}
    </>
  )
}
