// A real OpenID Connect provider for the single sign-on tests: the certified `oidc-provider` package, run by Node
// on loopback as its own process. Usage: node oidc-provider.mjs PORT REDIRECT_URI. It prints "ready" when it listens.
//
// Its development login form accepts any login; the login decides the account's claims:
//   "alice@example.com"            → that email, verified; preferred_username "alice"
//   "bob@example.com+unverified"   → that email, NOT verified
//   anything with "admin" in it    → also in the group "pdfshare-admins"
// POST /test-groups with {"login": …, "groups": […]} gives that login these groups too, from its next sign-in on.
// POST /test-mode with "wrong-audience", "expired" or "normal" makes the next ID tokens of the token endpoint
// carry another audience or an expiry in the past, re-signed with the provider's own key (so only the claim is wrong).
import { generateKeyPairSync } from 'node:crypto'
import { exportJWK, importJWK, SignJWT, decodeJwt } from 'jose'
import Provider from 'oidc-provider'

const [port, redirectUri] = process.argv.slice(2)
const issuer = `http://127.0.0.1:${port}`
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }
const signingKey = await importJWK(jwk, 'RS256')

/** Groups given to a login by POST /test-groups, beside those its name decides. */
const extraGroups = new Map()

const claimsOf = (login) => {
  const unverified = login.endsWith('+unverified')
  const email = login.replace(/\+unverified$/, '').toLowerCase()
  return {
    email,
    email_verified: !unverified,
    preferred_username: email.split('@')[0],
    groups: [...(login.includes('admin') ? ['pdfshare-admins', 'staff'] : ['staff']), ...(extraGroups.get(login) ?? [])],
  }
}

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'pdfshare',
      client_secret: 'a client secret long enough',
      redirect_uris: [redirectUri],
      response_types: ['code'],
      grant_types: ['authorization_code'],
    },
  ],
  jwks: { keys: [jwk] },
  pkce: { required: () => true },
  scopes: ['openid', 'email', 'profile', 'groups'],
  claims: { email: ['email', 'email_verified'], profile: ['preferred_username'], groups: ['groups'] },
  conformIdTokenClaims: false, // the claims go in the ID token too, as Keycloak and Authentik put them
  features: { devInteractions: { enabled: true } },
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...claimsOf(sub) }) }),
  cookies: { keys: ['test cookie key'] },
})
provider.proxy = false

let mode = 'normal'
provider.use(async (ctx, next) => {
  if (ctx.path === '/test-groups' && ctx.method === 'POST') {
    const { login, groups } = JSON.parse(await new Response(ctx.req).text())
    extraGroups.set(login, groups)
    ctx.body = 'ok'
    return
  }
  if (ctx.path === '/test-mode' && ctx.method === 'POST') {
    mode = (await new Response(ctx.req).text()).trim()
    ctx.body = mode
    return
  }
  await next()
  if (ctx.path !== '/token' || mode === 'normal' || !ctx.body?.id_token) return
  const claims = decodeJwt(ctx.body.id_token)
  const now = Math.floor(Date.now() / 1000)
  const changed = mode === 'wrong-audience' ? { ...claims, aud: 'another-client' } : { ...claims, iat: now - 7200, exp: now - 3600 }
  ctx.body = { ...ctx.body, id_token: await new SignJWT(changed).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(signingKey) }
})

provider.listen(Number(port), '127.0.0.1', () => console.log('ready'))
