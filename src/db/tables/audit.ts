import type { Kit } from './kit'

/** The audit log (core/audit). */
export function auditTables(k: Kit) {
  /**
   * Who did what on the server (docs/api.md, Audit log): sign-ins, tokens, users and quotas, deleted files, links and
   * webhooks. No foreign keys: an entry outlives the user, file or token it names. Never a secret in `detail`.
   */
  const auditEvents = k.table(
    'audit_events',
    {
      seq: k.seq(),
      at: k.millis('at').notNull(),
      /** e.g. sign_in.failed, token.issued, link.changed (src/shared/audit-shapes.ts). */
      action: k.text('action').notNull(),
      /** The account the entry is about: its owner sees it. NULL: no account (a sign-in as a name that does not exist). */
      userId: k.text('user_id'),
      /** Who did it: a user's id, or NULL for the server's own command line. */
      actorId: k.text('actor_id'),
      /** The actor's name when it acted ("pdfshare CLI" for the command line), kept if the user is removed. */
      actorName: k.text('actor_name').notNull(),
      /** api or cli. */
      via: k.text('via').notNull(),
      /** The client's address (its /64 for IPv6) for requests through the API; NULL from the command line. */
      address: k.text('address'),
      /** The entry's facts as a JSON object: ids, names, labels, scopes, limits; never a password, code or token. */
      detail: k.text('detail').notNull(),
      /**
       * The team the entry concerns (its owners read it, docs/teams.md): the team acted for, or the team named in
       * the facts (`teamId`). NULL: no team. No foreign key, like the rest: the entry outlives the team.
       */
      teamId: k.text('team_id'),
    },
    (table) => [
      k.index('audit_events_user_idx').on(table.userId, table.seq),
      k.index('audit_events_at_idx').on(table.at),
      k.index('audit_events_team_idx').on(table.teamId, table.seq),
    ],
  )

  return { auditEvents }
}
