import { type Scope, SCOPES } from '../../shared/account-shapes'

export { type Scope, SCOPES }

/** Every scope: what a token issued without scopes may do. */
export const ALL_SCOPES: ReadonlySet<Scope> = new Set(SCOPES)

const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value)

/** Scopes as the CLI and the API take them ("files:read,analytics:read", commas or spaces), in SCOPES order; or what is wrong. */
export function parseScopes(text: string): { scopes: Scope[] } | { problem: string } {
  const named = text.split(/[\s,]+/).filter((name) => name !== '')
  if (named.length === 0) return { problem: `name at least one scope: ${SCOPES.join(', ')}` }
  const unknown = named.filter((name) => !isScope(name))
  if (unknown.length > 0) return { problem: `unknown scope ${JSON.stringify(unknown[0])}; the scopes are ${SCOPES.join(', ')}` }
  return { scopes: SCOPES.filter((scope) => named.includes(scope)) }
}

/** A token row's `scopes` column: NULL is every scope. */
export function scopesOfColumn(column: string | null): ReadonlySet<Scope> {
  return column === null ? ALL_SCOPES : new Set(column.split(' ').filter(isScope))
}

/** The column for a token's scopes: NULL for every scope, so a token that may do everything stays so as scopes are added. */
export function columnOfScopes(scopes: ReadonlySet<Scope>): string | null {
  return SCOPES.every((scope) => scopes.has(scope)) ? null : SCOPES.filter((scope) => scopes.has(scope)).join(' ')
}

/**
 * The scopes of a token issued by `issuer`: those asked for, which the issuer must all hold (a token never gives
 * more than it has); when none are asked for, the issuer's own: every scope (NULL) from an unrestricted token,
 * else the issuer's. Returns the scopes the issuer lacks instead, when it asked for any.
 */
export function scopesToIssue(
  issuer: { scopes: ReadonlySet<Scope>; unrestricted: boolean },
  asked: readonly Scope[] | undefined,
): { scopes: ReadonlySet<Scope> | undefined } | { lacking: Scope[] } {
  if (asked === undefined) return { scopes: issuer.unrestricted ? undefined : issuer.scopes }
  const lacking = SCOPES.filter((scope) => asked.includes(scope) && !issuer.scopes.has(scope))
  return lacking.length > 0 ? { lacking } : { scopes: new Set(asked) }
}
