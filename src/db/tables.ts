/**
 * The tables every query is built from, for the dialect this process runs on. The SQLite tables
 * (`./schema`) are the typed source; on PostgreSQL the same names are bound to `./pg/schema`, which a test
 * keeps equal column by column (names, modes, nullability), so every query, its SQL and its row types stay
 * the same on both. One process serves one database: `useTablesOf` is called once by `openDb` (with the PostgreSQL tables, loaded only then), before any
 * query, and a second dialect in the same process is refused there.
 */
import type * as pg from './pg/schema'
import * as sqlite from './schema'

export type { FileRow, FileVersionRow, LinkRow, TokenRow, UserRow, VisitRow, WebhookDeliveryRow, WebhookRow } from './schema'

export let users = sqlite.users
export let tokens = sqlite.tokens
export let files = sqlite.files
export let links = sqlite.links
export let fileVersions = sqlite.fileVersions
export let viewMarks = sqlite.viewMarks
export let visits = sqlite.visits
export let visitPages = sqlite.visitPages
export let webhooks = sqlite.webhooks
export let webhookDeliveries = sqlite.webhookDeliveries
export let meta = sqlite.meta
export let rateCounters = sqlite.rateCounters
export let uploadLeases = sqlite.uploadLeases
export let pdfPages = sqlite.pdfPages

/** Binds the table names above to `dialect`'s tables (ES module bindings are live: every importer sees it). */
export function useTablesOf(tables: typeof sqlite | typeof pg): void {
  const source = tables as unknown as typeof sqlite
  users = source.users
  tokens = source.tokens
  files = source.files
  links = source.links
  fileVersions = source.fileVersions
  viewMarks = source.viewMarks
  visits = source.visits
  visitPages = source.visitPages
  webhooks = source.webhooks
  webhookDeliveries = source.webhookDeliveries
  meta = source.meta
  rateCounters = source.rateCounters
  uploadLeases = source.uploadLeases
  pdfPages = source.pdfPages
}
