import { tablesOf } from '../tables'
import { pgKit } from './kit'

/**
 * The PostgreSQL tables, built from the one definition of every table (db/tables/) with PostgreSQL's kit: the
 * same names, columns, nullability, defaults, keys, uniques and indexes as the SQLite ones, with the column
 * types db/tables/kit.ts lists. Typed as the SQLite tables, which every query is written against.
 */
export const pgTables = tablesOf(pgKit)

// drizzle-kit (drizzle.pg.config.ts) finds the tables among this module's exports, so each is exported by name;
// test/db/pg-schema.test.ts fails when one of the map is missing here (drizzle-kit would drop its table).
export const {
  owners,
  teams,
  users,
  tokens,
  teamMembers,
  invitations,
  recoveryCodes,
  ssoIdentities,
  ssoHandoffs,
  passkeys,
  webauthnChallenges,
  passwordResets,
  emailChanges,
  files,
  fileVersions,
  pdfPages,
  rooms,
  roomItems,
  links,
  agreementTexts,
  requests,
  senderCodes,
  viewMarks,
  readerCodes,
  visits,
  visitPages,
  acceptances,
  webhooks,
  webhookDeliveries,
  mailOutbox,
  notificationChannels,
  readerEvents,
  notificationDeliveries,
  auditEvents,
  branding,
  rateCounters,
  uploadLeases,
  idempotencyKeys,
  meta,
} = pgTables
