import { t, type Static } from 'elysia'
import { oneOf } from '../../http/schemas'
import { AUDIT_ACTIONS } from '../../shared/audit-shapes'

/**
 * The audit log's shapes, written once: the routes check queries and answers with them, the OpenAPI document
 * shows them, and the types come from them, for the server and the dashboard alike.
 */

export const AuditEntrySchema = t.Object(
  {
    id: t.String({ description: 'Increases with time; the cursor of the next page is one' }),
    at: t.String({ description: 'ISO 8601' }),
    action: oneOf(AUDIT_ACTIONS),
    user: t.Union(
      [t.Object({ id: t.String(), name: t.Union([t.String(), t.Null()], { description: 'null: the user was removed' }) }), t.Null()],
      {
        description: 'The account the entry is about; null when there is none (a sign-in as a name no user has)',
      },
    ),
    actor: t.Object({
      id: t.Union([t.String(), t.Null()], { description: 'null: the command line on the server, or a client that proved no identity' }),
      name: t.String(),
      via: oneOf(['api', 'cli']),
    }),
    address: t.Union([t.String(), t.Null()], {
      description:
        "The client's address (an IPv6 address's /64); shown to admins, and to owners for what they did or was tried on their account",
    }),
    detail: t.Record(t.String(), t.Unknown(), { description: 'The facts: ids, names, labels, scopes, limits; never a secret' }),
  },
  { title: 'AuditEntry' },
)
export type AuditEntryDto = Static<typeof AuditEntrySchema>

export const AuditPageEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Array(AuditEntrySchema),
  nextCursor: t.Union([t.String(), t.Null()], { description: 'Pass as ?cursor= for the next page; null: no more' }),
})

const failsWith = (message: string) => ({ error: () => message })

export const AuditQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 50, ...failsWith('limit must be an integer from 1 to 100') })),
  cursor: t.Optional(
    t.String({
      maxLength: 20,
      pattern: '^[1-9][0-9]*$',
      description: 'nextCursor of the previous page',
      ...failsWith('cursor must be the nextCursor of a previous page'),
    }),
  ),
  action: t.Optional(oneOf(AUDIT_ACTIONS, { ...failsWith(`action must be one of ${AUDIT_ACTIONS.join(', ')}`) })),
  by: t.Optional(
    t.Literal('admin', {
      description: "admin: only what someone acting on another user's account did to it (an admin's changes)",
      ...failsWith('by must be admin'),
    }),
  ),
  since: t.Optional(
    t.String({
      format: 'date-time',
      description: 'Entries at or after this time',
      ...failsWith('since must be an ISO 8601 date-time, e.g. 2026-11-01T00:00:00Z'),
    }),
  ),
  until: t.Optional(
    t.String({
      format: 'date-time',
      description: 'Entries before this time',
      ...failsWith('until must be an ISO 8601 date-time, e.g. 2026-12-01T00:00:00Z'),
    }),
  ),
})

/** The admin's query: the same filters, and one user's entries by name. */
export const AdminAuditQuery = t.Object({
  ...AuditQuery.properties,
  user: t.Optional(
    t.String({ maxLength: 64, description: 'Only the entries about this user (by name)', ...failsWith('user must be a user name') }),
  ),
})

/** A team's log takes the account's filters but `by` (a team's entries are about no single account). */
const { by: _by, ...teamFilters } = AuditQuery.properties
export const TeamAuditQuery = t.Object(teamFilters)
export const TeamAuditParams = t.Object({ id: t.String({ maxLength: 64, description: "The team's id" }) })
