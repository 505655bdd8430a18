import { useEffect, useRef } from 'preact/hooks'
import type { DeliveryDto } from '../../../src/routes/webhooks/model'
import { api, ok } from './api'
import { formatDate } from './format'
import { usePages } from './use-api'
import { TableHead } from './table-head'
import { t } from './i18n'

const PAGE_SIZE = 20
/** While a delivery is pending the log is read again this often, this many times at most (then "Refresh"). */
const POLL_MS = 2_000
const POLLS = 45

/** The receiver's last answer, in words: its HTTP status and/or the error (timeout, refused address…). */
function lastAnswer(delivery: DeliveryDto): string {
  const parts = [delivery.lastStatus !== null && `HTTP ${delivery.lastStatus}`, delivery.lastError].filter(Boolean)
  return parts.length ? parts.join(': ') : '—'
}

function when(delivery: DeliveryDto): string {
  if (delivery.deliveredAt) return `delivered ${formatDate(delivery.deliveredAt)}`
  if (delivery.status === 'pending' && delivery.nextAttemptAt) return t('wh.next', { date: formatDate(delivery.nextAttemptAt) })
  return '—'
}

/**
 * A webhook's delivery log, newest first: what was sent, how it went, how many attempts. `revision` changes
 * when a test event was queued, so the log is read again; while anything is pending it is read every 2 s.
 */
export function DeliveryLog(props: { webhookId: string; label: string; revision: number }) {
  const log = usePages(
    (cursor) => ok(api.api.webhooks({ id: props.webhookId }).deliveries.get({ query: { limit: PAGE_SIZE, cursor } })),
    [props.webhookId, props.revision],
    { failure: t('wh.logFailed') },
  )
  const deliveries = log.items
  const loadError = log.error
  const polls = useRef(0)
  useEffect(() => {
    polls.current = 0
  }, [props.webhookId, props.revision])

  const pending = deliveries?.some((delivery) => delivery.status === 'pending') ?? false
  useEffect(() => {
    if (!pending || polls.current >= POLLS) return
    const timer = setTimeout(() => {
      polls.current++
      void log.reload()
    }, POLL_MS)
    return () => clearTimeout(timer)
  }, [deliveries])

  return (
    <div class="delivery-log">
      <div class="row">
        <h4>{t('wh.log')}</h4>
        <button type="button" class="link" onClick={log.reload}>
          {t('an.refresh')}
          <span class="visually-hidden"> {t('wh.logOf', { label: props.label })}</span>
        </button>
      </div>
      {loadError && (
        <p class="form-error" role="alert">
          {loadError}
        </p>
      )}
      {deliveries === null && !loadError && <p>{t('wh.logLoading')}</p>}
      {deliveries && deliveries.length === 0 && <p class="hint">{t('wh.logNone', { test: t('wh.test') })}</p>}
      {deliveries && deliveries.length > 0 && (
        <div class="table-wrap">
          <table class="deliveries">
            <caption class="visually-hidden">Deliveries to {props.label}, newest first</caption>
            <TableHead
              columns={[
                t('wh.col.event'),
                t('ntf.col.status'),
                t('wh.col.attempts'),
                t('wh.col.last'),
                t('account.col.created'),
                t('wh.col.when'),
              ]}
            />
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id} data-status={delivery.status}>
                  <td>
                    <code>{delivery.event}</code>
                  </td>
                  <td data-label={t('ntf.col.status')}>
                    <span class={`state delivery-${delivery.status}`}>{t('wh.status', { status: delivery.status })}</span>
                  </td>
                  <td data-label={t('wh.col.attempts')}>{delivery.attempts}</td>
                  <td data-label={t('wh.col.last')} class="delivery-error">
                    {lastAnswer(delivery)}
                  </td>
                  <td data-label={t('account.col.created')}>{formatDate(delivery.createdAt)}</td>
                  <td data-label={t('wh.col.when')}>{when(delivery)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.hasMore && (
        <button type="button" onClick={log.more}>
          {t('wh.older')}
        </button>
      )}
    </div>
  )
}
