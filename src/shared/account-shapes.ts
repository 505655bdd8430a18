/**
 * The account's limits, for the server and the dashboard alike. Bundled into the browser: constants only.
 * modules/auth/model.ts builds its t-schemas from them; the account's API types are that model's.
 */

/** The longest label of an API token, in code points. */
export const TOKEN_LABEL_MAX = 100
