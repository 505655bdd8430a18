import { tablesOf } from './tables'
import { sqliteKit } from './tables/kit'

/**
 * The SQLite tables, built from the one definition of every table (db/tables/) with SQLite's kit: the tables an
 * embedded or libSQL database carries (`ctx.db.tables`), whose types every query is written against.
 */
export const sqliteTables = tablesOf(sqliteKit)

// drizzle-kit (drizzle.config.ts) finds the tables among this module's exports, so each is exported by name;
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
} = sqliteTables
