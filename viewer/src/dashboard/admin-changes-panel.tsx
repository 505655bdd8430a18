import { useState } from 'preact/hooks'
import { ACTION_TEXT, facts } from './audit-words'
import { api, ok } from './api'
import { formatDate } from './format'
import { useLoad } from './use-api'
import { t } from './i18n'

const DAYS = 30

/**
 * What an admin changed on this account lately (GET /api/audit?by=admin), so a change to how it is signed in to is
 * never a secret from its owner (docs/api.md, Admins). Shown only when there is one.
 */
export function AdminChangesPanel() {
  const [since] = useState(() => new Date(Date.now() - DAYS * 86_400_000).toISOString())
  const changes = useLoad(() => ok(api.api.audit.get({ query: { by: 'admin', since, limit: 20 } })), [], {
    failure: t('changes.loadFailed'),
  }).value
  if (!changes || changes.length === 0) return null
  return (
    <section class="card" aria-labelledby="admin-changes-heading">
      <h2 id="admin-changes-heading">{t('changes.heading')}</h2>
      <p>{t('changes.text', { days: DAYS })}</p>
      <ul class="plain changes">
        {changes.map((entry) => (
          <li key={entry.id}>
            {t('changes.by', { date: formatDate(entry.at), action: t(ACTION_TEXT[entry.action]), name: entry.actor.name })}{' '}
            <span class="hint">{facts(entry.detail)}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
