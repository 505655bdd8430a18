/**
 * The account's shapes (the user, their API tokens, a sign-in) as the dashboard sees them. Bundled into the
 * browser like file-shapes.ts: plain types and constants only. modules/auth/model.ts builds its t-schemas
 * from the constants, and test/types/shared-shapes.test.ts keeps these types equal to the schemas' types.
 */

/** The longest label of an API token, in code points. */
export const TOKEN_LABEL_MAX = 100

/** GET /api/me. */
export type MeDto = {
  id: string
  name: string
  usage: { files: number; bytes: number }
  limits: { maxStorageBytes: number | null; maxFiles: number | null; maxFileSize: number }
}

/** One of the caller's tokens in GET /api/tokens (never its value). */
export type TokenDto = { id: string; label: string; createdAt: string; expiresAt: string | null; current: boolean }

/** POST /api/tokens: the new token, whose value is shown this once. */
export type IssuedTokenDto = { token: string; id: string; label: string; expiresAt: string | null }

/** POST /api/auth/login: a session token and whose it is. */
export type SignInDto = { token: string; tokenId: string; label: string; expiresAt: string | null; user: { id: string; name: string } }
