import { useId, useState } from 'preact/hooks'
import { formatDay } from './format'
import { TableHead } from './table-head'
import { t } from './i18n'

type Day = { day: string; views: number; uniqueVisitors: number }

/** What the chart shows, in one sentence for screen readers (the exact numbers are in its table). */
export function chartSummary(days: Day[]): string {
  const total = days.reduce((sum, day) => sum + day.views, 0)
  const from = days.length ? formatDay(days[0]!.day) : ''
  const to = days.length ? formatDay(days[days.length - 1]!.day) : ''
  if (total === 0) return t('chart.none', { from, to })
  const busiest = days.reduce((best, day) => (day.views > best.views ? day : best))
  return t('chart.summary', { from, to, views: total, busiest: formatDay(busiest.day), most: busiest.views })
}

/** The chart's own units; it stretches to the panel's width at a fixed height (CSS), text kept outside it. */
const WIDTH = 600
const HEIGHT = 150
const TOP = 4
const BOTTOM = 1

/**
 * Views per day as an inline SVG bar chart (our own: no chart library, nothing from a CDN), coloured by the
 * page's CSS variables so it follows light and dark. The SVG is one image with a summary as its name; the same
 * numbers are one button away as a real table, which a screen reader can walk cell by cell. A toggle rather
 * than a table that is always there but hidden: a sighted reader who wants the exact numbers gets them too,
 * and a screen reader hears the summary first instead of 90 rows before the rest of the panel.
 */
export function ViewsChart(props: { days: Day[] }) {
  const [asTable, setAsTable] = useState(false)
  const tableId = useId()
  const { days } = props
  const max = Math.max(1, ...days.map((day) => day.views))
  const slot = WIDTH / Math.max(1, days.length)
  const plot = HEIGHT - TOP - BOTTOM
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])
  return (
    <div class="views-chart">
      {/* The scale's top in HTML, so it keeps its size when the chart stretches to the panel. */}
      <span class="chart-max" aria-hidden="true">
        {max}
      </span>
      <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={chartSummary(days)}>
        <line class="chart-grid" x1={0} x2={WIDTH} y1={TOP} y2={TOP} vector-effect="non-scaling-stroke" />
        <line class="chart-base" x1={0} x2={WIDTH} y1={TOP + plot} y2={TOP + plot} vector-effect="non-scaling-stroke" />
        {days.map((day, index) => {
          const height = (day.views / max) * plot
          return (
            <rect
              key={day.day}
              class="chart-bar"
              data-day={day.day}
              data-views={day.views}
              x={index * slot + slot * 0.15}
              y={TOP + plot - height}
              width={slot * 0.7}
              height={height}
            >
              <title>{t('chart.day', { day: formatDay(day.day), views: day.views })}</title>
            </rect>
          )
        })}
      </svg>
      {/* Day labels in HTML under the chart, so they keep their size when the chart stretches. */}
      <div class="chart-days" aria-hidden="true">
        {[...labelled].map((index) => days[index] && <span key={index}>{formatDay(days[index]!.day)}</span>)}
      </div>
      <button type="button" class="link" aria-expanded={asTable} aria-controls={tableId} onClick={() => setAsTable(!asTable)}>
        {asTable ? t('chart.hide') : t('chart.show')}
      </button>
      <div id={tableId} class="table-wrap chart-table" hidden={!asTable}>
        {asTable && (
          <table>
            <caption class="visually-hidden">{t('chart.caption')}</caption>
            <TableHead columns={[t('chart.col.day'), t('an.views'), t('an.unique')]} />
            <tbody>
              {days.map((day) => (
                <tr key={day.day}>
                  <th scope="row">
                    <time dateTime={day.day}>{formatDay(day.day)}</time>
                  </th>
                  <td data-label={t('an.views')}>{day.views}</td>
                  <td data-label={t('an.unique')}>{day.uniqueVisitors}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  )
}

/** A horizontal bar for a table cell: decoration beside the number, which is the cell's text. */
export function Bar(props: { value: number; max: number }) {
  const share = props.max > 0 ? Math.max(0, Math.min(1, props.value / props.max)) : 0
  return (
    <svg class="hbar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <rect class="hbar-track" width={100} height={10} rx={2} />
      <rect class="hbar-fill" width={share * 100} height={10} rx={2} />
    </svg>
  )
}
