import { SignJWT, jwtVerify, decodeJwt } from 'jose'

/**
 * API tokens are HS256 JWTs. jose is used directly rather than through @elysiajs/jwt because the CLI signs
 * tokens without an Elysia app, and because the plugin's defaults accept any HMAC algorithm and tokens
 * without `exp`. Here the algorithm is pinned and every claim is checked. Part of core because the token
 * format is shared: the server verifies, the auth module and the CLI issue, and opening a data dir derives
 * the key.
 */
export const JWT_ALGORITHM = 'HS256'
export const JWT_ISSUER = 'pdfshare'
const CLOCK_LEEWAY_SECONDS = 30

export type TokenClaims = { sub: string; jti: string; iat: number; exp?: number }

/** The HMAC key of a signing secret (configured, or generated into the data dir). */
export function signingKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret)
}

export async function signToken(key: Uint8Array, claims: TokenClaims): Promise<string> {
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: JWT_ALGORITHM, typ: 'JWT' })
    .setIssuer(JWT_ISSUER)
    .setSubject(claims.sub)
    .setJti(claims.jti)
    .setIssuedAt(claims.iat)
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp)
  return jwt.sign(key)
}

export type VerifiedClaims = { sub: string; jti: string; exp: number | undefined }

/** The same expiry rule jose applies (with the leeway): lets a cached verification be checked again later. */
export function isUnexpired(claims: VerifiedClaims, nowMs: number): boolean {
  return claims.exp === undefined || claims.exp > Math.floor(nowMs / 1000) - CLOCK_LEEWAY_SECONDS
}

/**
 * The verified claims, or `undefined` for anything wrong: another algorithm (`none`, HS512, RS256…),
 * a bad signature, a wrong issuer, `exp`/`nbf` outside the 30 s leeway, or a missing `sub`/`jti`.
 * The reason is deliberately not returned: every failure answers the same 401.
 */
export async function verifyToken(key: Uint8Array, token: string): Promise<VerifiedClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [JWT_ALGORITHM],
      issuer: JWT_ISSUER,
      clockTolerance: CLOCK_LEEWAY_SECONDS,
      requiredClaims: ['sub', 'jti', 'iat'],
    })
    if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return undefined
    return { sub: payload.sub, jti: payload.jti, exp: payload.exp }
  } catch {
    return undefined
  }
}

/** The `jti` of a token without verifying it: lets `token revoke` take a whole JWT as well as its id. */
export function unverifiedTokenId(token: string): string | undefined {
  try {
    const jti = decodeJwt(token).jti
    return typeof jti === 'string' ? jti : undefined
  } catch {
    return undefined
  }
}
