import { useState } from 'preact/hooks'
import { ACTION_TEXT, facts } from './audit-words'
import { api, ok } from './api'
import { formatDate } from './format'
import { useLoad } from './use-api'

const DAYS = 30

/**
 * What an admin changed on this account lately (GET /api/audit?by=admin), so a change to how it is signed in to is
 * never a secret from its owner (docs/api.md, Admins). Shown only when there is one.
 */
export function AdminChangesPanel() {
  const [since] = useState(() => new Date(Date.now() - DAYS * 86_400_000).toISOString())
  const changes = useLoad(() => ok(api.api.audit.get({ query: { by: 'admin', since, limit: 20 } })), [], {
    failure: 'The changes by an admin could not be loaded',
  }).value
  if (!changes || changes.length === 0) return null
  return (
    <section class="card" aria-labelledby="admin-changes-heading">
      <h2 id="admin-changes-heading">Changes by an admin</h2>
      <p>What an admin changed on your account in the last {DAYS} days. If you did not expect one, ask them about it.</p>
      <ul class="plain changes">
        {changes.map((entry) => (
          <li key={entry.id}>
            {formatDate(entry.at)}: {ACTION_TEXT[entry.action]} by {entry.actor.name} <span class="hint">{facts(entry.detail)}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
