import type { Kit } from './kit'
import type { OwnerTables } from './owners'

/** Accounts (core/accounts): users, their tokens and sessions, invitations, two-factor recovery codes, single sign-on, passkeys, password resets and email changes. */
export function accountTables(k: Kit, { teams }: { teams: OwnerTables['teams'] }) {
  const users = k.table('users', {
    id: k.text('id').primaryKey(),
    name: k.text('name').notNull().unique(),
    createdAt: k.millis('created_at').notNull(),
    /** Plan limits; NULL = unlimited. */
    maxBytes: k.bigint('max_bytes'),
    maxFiles: k.integer('max_files'),
    /** argon2id (Bun.password) PHC string; NULL: no password, the user signs in with API tokens only. */
    passwordHash: k.text('password_hash'),
    /** Admins manage users and every token (docs/api.md, Admins): the first user, and those added with --admin. */
    isAdmin: k.boolean('is_admin').notNull().default(false),
    /** When an admin disabled the account (it can neither sign in nor use its tokens); NULL: enabled. */
    disabledAt: k.millis('disabled_at'),
    /** The last successful sign-in (password), for the admin page; NULL: never. */
    lastSignInAt: k.millis('last_sign_in_at'),
    /** The TOTP secret (base32): pending until totpEnabledAt is set by a confirming code (docs/api.md, Two-factor sign-in). */
    totpSecret: k.text('totp_secret'),
    totpEnabledAt: k.millis('totp_enabled_at'),
    /** The 30-second step of the last code accepted, so a code is never accepted twice. */
    totpLastStep: k.bigint('totp_last_step'),
    /**
     * An admin asked that the first single sign-on with this verified email link to the account (then cleared). It
     * links to an account in use only once its owner allowed it (ssoLinkAllowed); docs/sign-in.md, Who gets in.
     */
    ssoLinkEmail: k.text('sso_link_email'),
    /** The user allowed the link of ssoLinkEmail (set by the user only; any new ssoLinkEmail of an admin clears it). */
    ssoLinkAllowed: k.boolean('sso_link_allowed').notNull().default(false),
    /** Where a password reset is mailed (lower-case): an address its user confirmed by mail, or a mailed invitation's; an admin may only remove it. */
    email: k.text('email').unique(),
    /** The language of the mails the account gets (one of shared/languages.ts); NULL: unset (docs/languages.md, Mails). */
    language: k.text('language'),
  })

  const tokens = k.table(
    'tokens',
    {
      /** The JWT's `jti`. */
      id: k.text('id').primaryKey(),
      userId: k
        .text('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      label: k.text('label').notNull(),
      createdAt: k.millis('created_at').notNull(),
      /** NULL for a token issued with --ttl never. */
      expiresAt: k.millis('expires_at'),
      revokedAt: k.millis('revoked_at'),
      /** The token's scopes, space-separated in SCOPES order; NULL: every scope of its user (docs/api.md, Scopes). */
      scopes: k.text('scopes'),
      /**
       * A sign-in's session (password, passkey, single sign-on, authenticating proxy, reset): when that sign-in proved
       * who its user is. NULL: an API token (the CLI, POST /api/tokens), which never may change how its account signs in.
       */
      provedAt: k.millis('proved_at'),
      /** A team token (docs/teams.md): it acts for this team, with what its user's role there allows; NULL: personal. */
      teamId: k.text('team_id').references(() => teams.id, { onDelete: 'cascade' }),
      /**
       * A dashboard's team session (docs/teams.md, The dashboard): the sign-in session it was opened from. It works
       * only while that session does, and is listed nowhere as an API token. NULL: any other token.
       */
      sessionId: k.text('session_id'),
    },
    (table) => [k.index('tokens_user_idx').on(table.userId)],
  )

  /**
   * An admin's invitation to create an account (docs/api.md, Admins), or a team owner's to join their team
   * (docs/teams.md, Inviting someone without an account): a link with a secret, shown once, valid 7 days, used
   * once. Only the SHA-256 of the secret is kept.
   */
  const invitations = k.table('invitations', {
    id: k.text('id').primaryKey(),
    secretHash: k.text('secret_hash').notNull().unique(),
    /** The admin who made it; NULL once that user is removed. */
    createdBy: k.text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: k.millis('created_at').notNull(),
    expiresAt: k.millis('expires_at').notNull(),
    /** Whether the new user is an admin, and their limits (NULL: unlimited). */
    admin: k.boolean('admin').notNull(),
    maxBytes: k.bigint('max_bytes'),
    maxFiles: k.integer('max_files'),
    /** When it was used, and the user it made; or when an admin revoked it. */
    usedAt: k.millis('used_at'),
    usedBy: k.text('used_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: k.millis('revoked_at'),
    /**
     * The address it was mailed to. Not the account's email: the admin chose it (and gets the link too), so it could be
     * the admin's own mailbox; the person who joins names and confirms their own.
     */
    email: k.text('email'),
    /** A team owner's invitation: the team the new account joins (deleted with it), and with which role. NULL: an admin's. */
    teamId: k.text('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    teamRole: k.text('team_role'),
  })

  /** A user's one-time recovery codes for two-factor sign-in: only their SHA-256 is kept (each has 80 random bits). */
  const recoveryCodes = k.table(
    'recovery_codes',
    {
      userId: k
        .text('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      codeHash: k.text('code_hash').notNull(),
      usedAt: k.millis('used_at'),
    },
    (table) => [k.primaryKey({ columns: [table.userId, table.codeHash] })],
  )

  /** Who a single sign-on is: the provider's (issuer, subject) pair, bound to one user for good. */
  const ssoIdentities = k.table(
    'sso_identities',
    {
      issuer: k.text('issuer').notNull(),
      subject: k.text('subject').notNull(),
      userId: k
        .text('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      email: k.text('email'),
      createdAt: k.millis('created_at').notNull(),
    },
    (table) => [k.primaryKey({ columns: [table.issuer, table.subject] }), k.index('sso_identities_user_idx').on(table.userId)],
  )

  /**
   * A finished single sign-on waiting for the dashboard to collect its session: the provider's redirect ends on
   * a page whose address holds a one-time code (never the token), which the dashboard exchanges within a minute.
   */
  const ssoHandoffs = k.table('sso_handoffs', {
    codeHash: k.text('code_hash').primaryKey(),
    userId: k
      .text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: k.millis('expires_at').notNull(),
  })

  /** A passkey (WebAuthn credential) a user signs in with; docs/sign-in.md, Passkeys. */
  const passkeys = k.table(
    'passkeys',
    {
      /** The credential id (base64url), as the authenticator gives it. */
      id: k.text('id').primaryKey(),
      userId: k
        .text('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      /** The COSE public key, base64url. */
      publicKey: k.text('public_key').notNull(),
      /** The signature counter; 0 for authenticators that keep none (most synced passkeys). */
      counter: k.bigint('counter').notNull(),
      /** How the browser may reach it (usb, internal, hybrid…), comma-separated. */
      transports: k.text('transports'),
      name: k.text('name').notNull(),
      createdAt: k.millis('created_at').notNull(),
      lastUsedAt: k.millis('last_used_at'),
    },
    (table) => [k.index('passkeys_user_idx').on(table.userId)],
  )

  /** A WebAuthn challenge handed out and not yet answered: each is answered once, within 5 minutes. */
  const webauthnChallenges = k.table('webauthn_challenges', {
    challenge: k.text('challenge').primaryKey(),
    /** Whose passkey it is to register; NULL for a sign-in (the passkey says whose it is). */
    userId: k.text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: k.millis('expires_at').notNull(),
  })

  /** A password reset mailed to a user: only the SHA-256 of its secret, valid 30 minutes, used once. */
  const passwordResets = k.table('password_resets', {
    secretHash: k.text('secret_hash').primaryKey(),
    userId: k
      .text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: k.millis('expires_at').notNull(),
    usedAt: k.millis('used_at'),
  })

  /**
   * A new email a user asked for (PUT /api/me/email), waiting for the link mailed to it: only the link's SHA-256,
   * valid EMAIL_CHANGE_HOURS, used once (the row is deleted). One per user: asking again replaces it.
   */
  const emailChanges = k.table(
    'email_changes',
    {
      secretHash: k.text('secret_hash').primaryKey(),
      userId: k
        .text('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      /** The address asked for, lower-case. */
      email: k.text('email').notNull(),
      expiresAt: k.millis('expires_at').notNull(),
    },
    (table) => [k.index('email_changes_user_idx').on(table.userId)],
  )

  return {
    users,
    tokens,
    invitations,
    recoveryCodes,
    ssoIdentities,
    ssoHandoffs,
    passkeys,
    webauthnChallenges,
    passwordResets,
    emailChanges,
  }
}
export type AccountTables = ReturnType<typeof accountTables>
