import { useState } from 'preact/hooks'
import type { AnalyticsDto, DeviceClass } from '../../../src/routes/analytics/model'
import { ANALYTICS_RANGES } from '../../../src/shared/analytics-shapes'
import { api, download, errorText, ok } from './api'
import { Bar, ViewsChart } from './charts'
import { formatDuration, lastDays } from './format'
import { linkName } from './links-panel'
import { notify } from './ui'
import { useLoad } from './use-api'
import { ReadersList } from './readers-list'
import { VisitsList } from './visits-list'
import { TableHead } from './table-head'
import { t } from './i18n'

const DEVICES: DeviceClass[] = ['desktop', 'phone', 'tablet']

function Totals(props: { totals: AnalyticsDto['totals'] }) {
  const { views, uniqueVisitors, downloads, medianReadingSeconds } = props.totals
  return (
    <dl class="totals">
      <div>
        <dt>{t('an.views')}</dt>
        <dd>{views}</dd>
      </div>
      <div>
        <dt>{t('an.unique')}</dt>
        <dd>{uniqueVisitors}</dd>
      </div>
      <div>
        <dt>{t('an.downloads')}</dt>
        <dd>{downloads}</dd>
      </div>
      <div>
        <dt>{t('an.median')}</dt>
        <dd>{medianReadingSeconds === null ? '—' : formatDuration(medianReadingSeconds)}</dd>
      </div>
    </dl>
  )
}

/** Per page: time on screen and reach (visits that got to this page or further), each a bar beside its number. */
function Pages(props: { pages: AnalyticsDto['pages'] }) {
  const { pages } = props
  if (pages.length === 0) {
    return <p class="hint">{t('an.noReading')}</p>
  }
  const longest = Math.max(...pages.map((page) => page.seconds))
  const widest = Math.max(...pages.map((page) => page.visitors))
  return (
    <div class="table-wrap">
      <table class="bars-table pages-table">
        <caption class="visually-hidden">{t('an.pagesCaption')}</caption>
        <TableHead columns={[t('an.col.page'), t('an.col.time'), t('an.col.reached')]} />
        <tbody>
          {pages.map((page) => (
            <tr key={page.page}>
              <th scope="row">{page.page}</th>
              <td data-label={t('an.col.time')}>
                <Bar value={page.seconds} max={longest} />
                <span class="bar-value">{formatDuration(page.seconds)}</span>
              </td>
              <td data-label={t('an.col.reached')}>
                <Bar value={page.visitors} max={widest} />
                <span class="bar-value">{t('an.visits', { visits: page.visitors })}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function Referrers(props: { referrers: AnalyticsDto['referrers'] }) {
  if (props.referrers.length === 0) return <p class="hint">{t('an.noReferrers')}</p>
  const most = Math.max(...props.referrers.map((referrer) => referrer.views))
  return (
    <table class="bars-table">
      <caption class="visually-hidden">{t('an.referrers')}</caption>
      <TableHead columns={[t('an.col.from'), t('an.views')]} />
      <tbody>
        {props.referrers.map((referrer) => (
          <tr key={referrer.host}>
            <th scope="row">{referrer.host || t('an.direct')}</th>
            <td data-label={t('an.views')}>
              <Bar value={referrer.views} max={most} />
              <span class="bar-value">{referrer.views}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function Devices(props: { devices: AnalyticsDto['devices'] }) {
  const most = Math.max(...DEVICES.map((key) => props.devices[key]))
  return (
    <table class="bars-table">
      <caption class="visually-hidden">{t('an.byDevice')}</caption>
      <TableHead columns={[t('an.col.device'), t('an.views')]} />
      <tbody>
        {DEVICES.map((key) => (
          <tr key={key}>
            <th scope="row">{t('an.device', { device: key })}</th>
            <td data-label={t('an.views')}>
              <Bar value={props.devices[key]} max={most} />
              <span class="bar-value">{props.devices[key]}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/**
 * What happened to the file: views per day, reading per page, referrers, devices and the visits, for the last
 * 7, 30 or 90 days, over all its links or one. Numbers come from the analytics API as they are.
 */
export function AnalyticsPanel(props: { fileId: string; filename: string }) {
  const [days, setDays] = useState<number>(30)
  const [linkId, setLinkId] = useState('')
  const [erasures, setErasures] = useState(0)
  // The links only name the choices: without them the panel still shows every link's numbers.
  const links =
    useLoad(() => ok(api.api.files({ id: props.fileId }).links.get()), [props.fileId], {
      failure: t('links.loadFailed'),
    }).value ?? []
  // Only the newest request's answer is shown when the choices change quickly.
  const analytics = useLoad(
    () => {
      const { from, to } = lastDays(days)
      return ok(
        linkId
          ? api.api.links({ linkId }).analytics.get({ query: { from, to } })
          : api.api.files({ id: props.fileId }).analytics.get({ query: { from, to } }),
      )
    },
    [props.fileId, days, linkId],
    { failure: t('an.loadFailed') },
  )
  const { value: data, error: loadError } = analytics

  const csv = async () => {
    try {
      await download(`/files/${props.fileId}/visits.csv`, `${props.filename.replace(/\.pdf$/i, '')}-visits.csv`)
    } catch (failure) {
      notify('error', errorText(failure, t('an.csvFailed')))
    }
  }

  const chosen = links.find((link) => link.id === linkId)
  const scope = chosen ? linkName(chosen) : t('an.allLinks')
  const nothing = data !== null && data.totals.views === 0 && data.totals.downloads === 0

  return (
    <section class="card analytics" aria-labelledby="analytics-heading" aria-busy={analytics.loading}>
      <h2 id="analytics-heading">{t('an.heading')}</h2>
      <div class="row wrap analytics-filters">
        <div class="field">
          <label for="analytics-range">{t('an.period')}</label>
          <select id="analytics-range" value={String(days)} onChange={(event) => setDays(Number(event.currentTarget.value))}>
            {ANALYTICS_RANGES.map((range) => (
              <option key={range} value={String(range)}>
                {t('an.lastDays', { days: range })}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="analytics-link">{t('file.link')}</label>
          <select id="analytics-link" value={linkId} onChange={(event) => setLinkId(event.currentTarget.value)}>
            <option value="">{t('an.allLinks')}</option>
            {links.map((link) => (
              <option key={link.id} value={link.id}>
                {linkName(link)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={analytics.reload}>
          {t('an.refresh')}
        </button>
        <button type="button" onClick={csv}>
          {t('an.csv')}
        </button>
      </div>
      {loadError && (
        <p class="form-error" role="alert">
          {loadError}
        </p>
      )}
      {data === null && !loadError && <p>{t('an.loading')}</p>}
      {data && (
        <>
          <p class="sub" aria-live="polite">
            {t('an.scope', { scope, from: data.from, to: data.to })}
          </p>
          <Totals totals={data.totals} />
          {nothing && <p class="empty-note">{t('an.nothing')}</p>}
          <h3>{t('an.perDay')}</h3>
          <ViewsChart days={data.viewsPerDay} />
          <h3>{t('an.perPage')}</h3>
          <Pages pages={data.pages} />
          <div class="analytics-grid">
            <div>
              <h3>{t('an.referrers')}</h3>
              <Referrers referrers={data.referrers} />
            </div>
            <div>
              <h3>{t('an.devices')}</h3>
              <Devices devices={data.devices} />
            </div>
          </div>
        </>
      )}
      {links.some((link) => link.access !== 'open') && (
        <>
          <h3>{t('an.readers')}</h3>
          <ReadersList fileId={props.fileId} linkId={linkId} onErased={() => setErasures((count) => count + 1)} />
        </>
      )}
      <h3>{t('an.recent')}</h3>
      <VisitsList key={`${props.fileId} ${linkId} ${erasures}`} fileId={props.fileId} linkId={linkId} links={links} />
    </section>
  )
}
