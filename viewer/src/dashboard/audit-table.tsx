import type { AuditEntryDto } from '../../../src/routes/audit/model'
import { ACTION_TEXT, facts } from './audit-words'
import { formatDate } from './format'
import { t } from './i18n'
import { TableHead } from './table-head'

/**
 * Entries of the audit log as a table, newest first: when, what, by whom and the details; whose account (an admin's
 * view of everyone's) and from which address where the page shows them. The Activity page's and a team's log.
 */
export function AuditTable(props: { entries: AuditEntryDto[]; caption: string; account?: boolean; address?: boolean }) {
  const { account = false, address = false } = props
  return (
    <div class="table-wrap">
      <table class="activity-table">
        <caption class="visually-hidden">{props.caption}</caption>
        <TableHead
          columns={[
            t('visits.col.when'),
            t('visits.col.what'),
            account && t('act.col.account'),
            t('act.col.by'),
            address && t('an.col.from'),
            t('act.col.details'),
          ]}
        />
        <tbody>
          {props.entries.map((entry) => (
            <tr key={entry.id}>
              <td data-label={t('visits.col.when')}>
                <time dateTime={entry.at}>{formatDate(entry.at)}</time>
              </td>
              <td data-label={t('visits.col.what')}>{t(ACTION_TEXT[entry.action])}</td>
              {account && <td data-label={t('act.col.account')}>{entry.user ? (entry.user.name ?? t('act.removedUser')) : '—'}</td>}
              <td data-label={t('act.col.by')}>{entry.actor.via === 'cli' ? t('act.cli') : entry.actor.name}</td>
              {address && <td data-label={t('an.col.from')}>{entry.address ?? '—'}</td>}
              <td data-label={t('act.col.details')}>{facts(entry.detail)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
