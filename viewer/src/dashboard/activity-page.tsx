import { useState } from 'preact/hooks'
import { AUDIT_ACTIONS, type AuditAction } from '../../../src/shared/audit-shapes'
import { AuditTable } from './audit-table'
import { ACTION_TEXT } from './audit-words'
import { api, ok } from './api'
import { useLoad, usePages } from './use-api'
import { t } from './i18n'

const PAGE_SIZE = 50

/** A date input's day as the start of that day in the reader's time zone, ISO; the day after for "until" (inclusive). */
const dayStart = (day: string, plusDays = 0) => {
  if (!day) return undefined
  const date = new Date(`${day}T00:00:00`)
  date.setDate(date.getDate() + plusDays)
  return date.toISOString()
}

/** What happened on the account (or, for an admin who asks, on the whole server), newest first, with filters. */
export function ActivityPage() {
  const me = useLoad(() => ok(api.api.me.get()), [], { failure: t('account.loadFailed') }).value
  const [everyone, setEveryone] = useState(false)
  const [action, setAction] = useState<AuditAction | ''>('')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [user, setUser] = useState('')
  const all = everyone && me?.admin === true
  const list = usePages(
    (cursor) => {
      const query = {
        limit: PAGE_SIZE,
        cursor,
        action: action || undefined,
        since: dayStart(from),
        until: dayStart(to, 1),
      }
      return ok(all ? api.api.admin.audit.get({ query: { ...query, user: user.trim() || undefined } }) : api.api.audit.get({ query }))
    },
    [all, action, from, to, all ? user.trim() : ''],
    { failure: t('act.loadFailed'), delay: 250 },
  )
  const entries = list.items

  return (
    <main class="activity">
      <h1>{t('title.activity')}</h1>
      <form class="row wrap filters" onSubmit={(event) => event.preventDefault()}>
        {me?.admin && (
          <div class="field">
            <label for="activity-scope">{t('act.whose')}</label>
            <select
              id="activity-scope"
              value={everyone ? 'all' : 'mine'}
              onChange={(event) => setEveryone(event.currentTarget.value === 'all')}
            >
              <option value="mine">{t('act.mine')}</option>
              <option value="all">{t('act.all')}</option>
            </select>
          </div>
        )}
        {all && (
          <div class="field">
            <label for="activity-user">{t('act.user')}</label>
            <input
              id="activity-user"
              value={user}
              maxLength={64}
              placeholder="any"
              onInput={(event) => setUser(event.currentTarget.value)}
            />
          </div>
        )}
        <div class="field">
          <label for="activity-action">{t('visits.col.what')}</label>
          <select id="activity-action" value={action} onChange={(event) => setAction(event.currentTarget.value as AuditAction | '')}>
            <option value="">{t('act.everything')}</option>
            {AUDIT_ACTIONS.map((name) => (
              <option key={name} value={name}>
                {t(ACTION_TEXT[name])}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="activity-from">{t('act.from')}</label>
          <input id="activity-from" type="date" value={from} onInput={(event) => setFrom(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="activity-to">{t('act.to')}</label>
          <input id="activity-to" type="date" value={to} onInput={(event) => setTo(event.currentTarget.value)} />
        </div>
      </form>
      {list.error ? (
        <p class="form-error" role="alert">
          {list.error}
        </p>
      ) : entries === null ? (
        <p aria-busy="true">{t('common.loading')}</p>
      ) : entries.length === 0 ? (
        <p class="hint">{t('act.none')}</p>
      ) : (
        <AuditTable entries={entries} caption={t('act.caption')} account={all} address />
      )}
      {list.hasMore && (
        <button type="button" disabled={list.loadingMore} onClick={list.more}>
          {list.loadingMore ? t('common.loading') : t('common.showMore')}
        </button>
      )}
    </main>
  )
}
