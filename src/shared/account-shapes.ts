/**
 * The account's limits, for the server and the dashboard alike. Bundled into the browser: constants only.
 * routes/auth/model.ts builds its t-schemas from them; the account's API types are that model's.
 */

/** A new token's lifetime when none is asked for (the CLI's --ttl, the API's `ttl`). */
export const DEFAULT_TOKEN_TTL = '90d'

/** The longest label of an API token, in code points. */
export const TOKEN_LABEL_MAX = 100

/**
 * What an API token may do (docs/api.md, Scopes). A token issued without scopes may do everything its user may,
 * so every token issued before scopes existed keeps working; one with scopes only what they name.
 */
export const SCOPES = [
  'files:read',
  'files:write',
  'links:write',
  'requests:write',
  'analytics:read',
  'webhooks:write',
  'teams:write',
  'account',
  'admin',
] as const
export type Scope = (typeof SCOPES)[number]

/** What each scope allows, in the words the CLI's help, the dashboard's token form and the API document use. */
export const SCOPE_MEANINGS: Readonly<Record<Scope, string>> = {
  'files:read':
    'list, get and download your files and their versions; list and get their links; list and get your rooms; list your teams and their members',
  'files:write':
    'upload, update, replace and delete files; restore and delete versions; erase a reader from their visits; create, change and delete rooms',
  'links:write': 'create, change and delete share links',
  'requests:write': 'create, change and delete file requests (reading them and what arrived is files:read)',
  'analytics:read': "read your files' and links' analytics and visits",
  'webhooks:write': 'list, add, test and delete webhooks and notification channels, and read their deliveries',
  'teams:write': "create teams; rename and delete a team, and change its members (a team's owners)",
  account: 'list, issue and revoke your own tokens',
  admin: "manage users and every user's tokens (admins only)",
}
