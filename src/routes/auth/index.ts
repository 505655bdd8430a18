import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { clientGroupOf } from '../../http/client-ip'
import { authFailures, FailureSchema, REAUTHENTICATION_NOTE } from '../../http/schemas'
import { newTokenFrom } from './input'
import {
  IssuedTokenEnvelope,
  AcceptInvitationBody,
  SsoExchangeBody,
  PasskeySignInBody,
  ResetRequestBody,
  ResetCompleteBody,
  ResetDoneEnvelope,
  AccountBody,
  EmailBody,
  EmailEnvelope,
  EmailConfirmBody,
  EmailConfirmedEnvelope,
  SsoLinkBody,
  SsoLinkEnvelope,
  ResetRequestedEnvelope,
  PasskeyPromptEnvelope,
  LoginBody,
  MeEnvelope,
  NewTokenBody,
  RevokedEnvelope,
  SignInEnvelope,
  TokenIdParams,
  TokenListEnvelope,
} from './model'
import { tokenFacts, toIssuedTokenDto, toSignInDto, toTokenDto } from '../../core/accounts/presenter'
import { getAccount } from '../../core/accounts/get-account'
import { setAccountLanguage } from '../../core/accounts/set-language'
import type { Language } from '../../shared/languages'
import { issueOwnToken } from '../../core/accounts/tokens/issue-own-token'
import { listActiveTokens } from '../../core/accounts/tokens/list-tokens'
import { logIn, startSession } from '../../core/accounts/log-in'
import { HANDOFF_COOKIE, handoffCookie, ssoPages } from './answers/sso'
import { cookieValues, setCookieHeader } from '../../lib/cookies'
import { collectHandoff } from '../../core/accounts/sso/handoff'
import { userWithId } from '../../core/accounts/users/users'
import { accountDisabled, notFound, passwordSignInOff, rateLimited } from '../../errors'
import { signInWithPasskey } from '../../core/accounts/passkeys'
import { PROXY_SECRET_HEADER, proxyAddresses, proxyUser } from '../../core/accounts/proxy-user'
import { RESET_MAILS_PER_HOUR, requestPasswordReset } from '../../core/accounts/password-reset'
import { reauthenticate } from '../../core/accounts/reauthenticate'
import { confirmEmailChange, requestEmailChange } from '../../core/accounts/email/change'
import { requireMail } from '../../core/mail/message'
import { askedLanguage } from '../../http/asked-language'
import { allowSsoLink, refuseSsoLink } from '../../core/accounts/sso/link'
import { ownEmail } from '../../core/accounts/change-email'
import { resetPassword } from '../../core/accounts/reset-password'
import { loggedRateLimiter } from '../../core/limits/logged-rate-limit'
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import { acceptInvitation } from '../../core/accounts/invitations'
import { ANONYMOUS, recordAudit } from '../../core/audit/record'
import { revokeOwnToken } from '../../core/accounts/tokens/revoke-token'
import { signInLimits } from '../../core/accounts/sign-in-limits'
import { type SignInStarts, signInStarts } from '../../core/accounts/sign-in-starts'

const tags = ['account']

/**
 * Signing in and the account: GET /api/me, PUT /api/me/email (confirmed through POST /api/auth/email/confirm),
 * POST/DELETE /api/me/sso-link (an admin's single sign-on link, allowed or refused); every way to a session token (password with its
 * second factor, passkey, single sign-on's handoff, authenticating proxy, invitation, password reset) and
 * /api/auth/logout; the user's own tokens (GET/POST /api/tokens, DELETE /api/tokens/:id); and the single sign-on
 * pages (answers/sso.ts). The API takes bearer tokens only; the cookies are single sign-on's pending state,
 * scoped to /auth/oidc, and its finished sign-in's half, scoped to /api/auth/sso.
 */
export function authRoutes(ctx: AppContext, auth: AuthGuard) {
  const starts = signInStarts(ctx)
  return new Elysia({ name: 'auth' }).use(ssoPages(ctx, starts)).use(authApi(ctx, auth, starts))
}

function authApi(ctx: AppContext, auth: AuthGuard, starts: SignInStarts) {
  const attempt = signInLimits(ctx)
  const fromProxy = proxyAddresses(ctx.config.authProxyAddresses)
  const changeOwnEmail = ownEmail(ctx)
  // Reset mails per client address (a minute) and per address asked for (an hour, as reader codes: 3 a minute
  // would still be 4,320 a day to one known address), so nobody can flood someone's inbox.
  const resetsByClient = loggedRateLimiter(ctx, 'of password-reset requests per client', ctx.config.rateLimitLogin)
  const resetsByEmail = loggedRateLimiter(
    ctx,
    'of password-reset requests per email',
    Math.min(RESET_MAILS_PER_HOUR, ctx.config.rateLimitLogin),
    'hour',
  )
  return new Elysia({ name: 'auth-api', prefix: '/api' })
    .use(auth)
    .get('/me', async ({ caller }) => ({ success: true as const, data: await getAccount(ctx, { userId: caller.userId }) }), {
      auth: true,
      response: { 200: MeEnvelope, 401: FailureSchema },
      detail: { summary: 'The authenticated user, their usage and limits', tags },
    })
    .patch(
      '/me',
      async ({ caller, body }) => {
        if (body.language !== undefined)
          await setAccountLanguage(ctx, { userId: caller.userId, language: body.language as Language | null })
        return { success: true as const, data: await getAccount(ctx, { userId: caller.userId }) }
      },
      {
        auth: 'account',
        parse: jsonBody(AccountBody, 'account'),
        body: AccountBody,
        response: { 200: MeEnvelope, 400: FailureSchema, 403: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures },
        detail: {
          summary: "Change the account's own settings: the language of the mails it gets",
          description:
            'language: one of the twelve tags of docs/languages.md, or null for none of its own (a mail is then in the language of the ' +
            'request that caused it, else the instance default). Anything else is a 400 invalid_request that lists the tags.',
          tags,
        },
      },
    )
    .post(
      '/auth/login',
      async ({ request, server, body: { username, password, code } }) => {
        if (!ctx.config.passwordSignIn) throw passwordSignInOff()
        const who = { address: clientGroupOf(request, server, ctx.config.trustProxyHops), name: username.toLowerCase() }
        const session = await attempt(who, () => logIn(ctx, { username, password, code, address: who.address }))
        return { success: true as const, data: toSignInDto(session) }
      },
      {
        parse: jsonBody(LoginBody, 'anyone'),
        body: LoginBody,
        response: {
          200: SignInEnvelope,
          400: FailureSchema,
          401: FailureSchema,
          403: FailureSchema,
          415: FailureSchema,
          429: FailureSchema,
          503: FailureSchema,
        },
        detail: {
          summary: 'Sign in with a user name and password: a session token (default 12 h), revocable like any token',
          tags,
          security: [],
        },
      },
    )
    .post(
      '/auth/accept-invitation',
      async ({ request, server, body, set }) => {
        if (!ctx.config.passwordSignIn) throw passwordSignInOff() // an invitation makes a password account
        const address = clientGroupOf(request, server, ctx.config.trustProxyHops)
        if (body.email !== undefined) requireMail(ctx) // refused before anything is made
        const { user, invitation } = await acceptInvitation(ctx, { secret: body.invitation, name: body.username, password: body.password })
        if (body.email !== undefined) await requestEmailChange(ctx, { userId: user.id, email: body.email, asked: askedLanguage(request) })
        await recordAudit(ctx, {
          action: 'user.added',
          actor: { via: 'api', userId: user.id, name: user.name, address },
          userId: user.id,
          detail: { name: user.name, admin: user.isAdmin, invitationId: invitation.id, invitedBy: invitation.createdBy },
        })
        if (invitation.teamId !== null) {
          // A team owner's invitation: the account joined the team (core/accounts/invitations.ts); the team's log says so.
          await recordAudit(ctx, {
            action: 'team.member_added',
            actor: { via: 'api', userId: user.id, name: user.name, address },
            userId: user.id,
            detail: { teamId: invitation.teamId, userId: user.id, name: user.name, role: invitation.teamRole, invitationId: invitation.id },
          })
        }
        const session = await logIn(ctx, { username: user.name, password: body.password, address })
        set.status = 201
        return { success: true as const, data: toSignInDto(session) }
      },
      {
        parse: jsonBody(AcceptInvitationBody, 'anyone'),
        body: AcceptInvitationBody,
        response: {
          201: SignInEnvelope,
          400: FailureSchema,
          404: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          503: FailureSchema,
        },
        detail: {
          summary: "Accept an admin's invitation: choose a user name and a password (and an email to confirm); signed in at once",
          description:
            'An invitation works once, for 7 days; a used, revoked or expired one is a 404. The address it was mailed to does not ' +
            'become the account’s email; an email sent here is mailed a link that confirms it (as PUT /api/me/email).',
          tags,
          security: [],
        },
      },
    )
    .put(
      '/me/email',
      async ({ caller, body, audit, set, request }) => {
        const owner = await reauthenticate(ctx, { caller, password: body.password })
        const answer = await changeOwnEmail({ userId: owner.user.id, email: body.email, asked: askedLanguage(request) })
        if (body.email === null) await audit('user.email_set', { name: caller.userName, email: null })
        set.status = answer.pendingEmail === null ? 200 : 202
        return { success: true as const, data: answer }
      },
      {
        auth: 'account',
        parse: jsonBody(EmailBody, 'account'),
        body: EmailBody,
        response: {
          200: EmailEnvelope,
          202: EmailEnvelope,
          400: FailureSchema,
          403: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          ...authFailures,
        },
        detail: {
          summary: 'Ask for a new email (used once the link mailed to it is opened), or with null remove it',
          description:
            'An address is answered 202 with the same words whether it is free, another user’s or your own; it becomes your email ' +
            'only through POST /api/auth/email/confirm with the link’s secret (valid 24 hours, once), and the old address is told. ' +
            REAUTHENTICATION_NOTE,
          tags,
        },
      },
    )
    .post(
      '/auth/email/confirm',
      async ({ request, server, body }) => {
        const { user } = await confirmEmailChange(ctx, { secret: body.secret, asked: askedLanguage(request) })
        await recordAudit(ctx, {
          action: 'user.email_set',
          actor: { via: 'api', userId: user.id, name: user.name, address: clientGroupOf(request, server, ctx.config.trustProxyHops) },
          userId: user.id,
          detail: { name: user.name, email: user.email, via: 'confirmed by mail' },
        })
        return { success: true as const, data: { email: user.email ?? '' } }
      },
      {
        parse: jsonBody(EmailConfirmBody, 'anyone'),
        body: EmailConfirmBody,
        response: { 200: EmailConfirmedEnvelope, 400: FailureSchema, 404: FailureSchema, 413: FailureSchema, 415: FailureSchema },
        detail: {
          summary: 'Confirm a new email with the secret of the link mailed to it: it becomes the account’s email',
          description: 'A used, replaced or expired link, or one whose address another account took meanwhile, is a 404.',
          tags,
          security: [],
        },
      },
    )
    .post(
      '/me/sso-link',
      async ({ caller, body, audit }) => {
        const owner = await reauthenticate(ctx, { caller, password: body.password })
        await allowSsoLink(ctx, { userId: owner.user.id, email: body.email })
        const email = body.email.trim().toLowerCase()
        await audit('user.sso_link_set', { name: caller.userName, ssoEmail: email, allowedByUser: true })
        return { success: true as const, data: { ssoLink: { email, allowed: true } } }
      },
      {
        auth: 'account',
        parse: jsonBody(SsoLinkBody, 'account'),
        body: SsoLinkBody,
        response: {
          200: SsoLinkEnvelope,
          400: FailureSchema,
          403: FailureSchema,
          409: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          ...authFailures,
        },
        detail: {
          summary: 'Allow the single sign-on link an admin asked for: that sign-in will open this account (once)',
          description: `email must be the one GET /api/me shows in ssoLink; another (or none asked) is a 409. ${REAUTHENTICATION_NOTE}`,
          tags,
        },
      },
    )
    .delete(
      '/me/sso-link',
      async ({ caller, audit }) => {
        const refused = await refuseSsoLink(ctx, { userId: caller.userId })
        if (refused !== null) await audit('user.sso_link_set', { name: caller.userName, ssoEmail: null, refused })
        return { success: true as const, data: { ssoLink: null } }
      },
      {
        auth: 'account',
        response: { 200: SsoLinkEnvelope, ...authFailures },
        detail: { summary: 'Refuse (or withdraw) the single sign-on link an admin asked for', tags },
      },
    )
    .post(
      '/auth/password-reset',
      async ({ request, server, body, set }) => {
        if (!ctx.config.passwordSignIn) throw passwordSignInOff()
        const client = clientGroupOf(request, server, ctx.config.trustProxyHops)
        const now = ctx.now()
        for (const [limiter, key] of [
          [resetsByClient, client],
          [resetsByEmail, body.email.trim().toLowerCase()],
        ] as const) {
          const decision = await limiter.hit(key, now)
          if (decision && !decision.allowed) throw rateLimited(decision)
        }
        await requestPasswordReset(ctx, { email: body.email, asked: askedLanguage(request) })
        set.status = 202
        return {
          success: true as const,
          data: { message: 'If a user with a password has this address, a link to choose a new one is on its way (valid 30 minutes).' },
        }
      },
      {
        parse: jsonBody(ResetRequestBody, 'anyone'),
        body: ResetRequestBody,
        response: {
          202: ResetRequestedEnvelope,
          400: FailureSchema,
          403: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          429: FailureSchema,
        },
        detail: {
          summary: 'Forgot password: mail a link to choose a new one (the same answer whether or not the address is a user’s)',
          tags,
          security: [],
        },
      },
    )
    .post(
      '/auth/password-reset/complete',
      async ({ request, server, body }) => {
        if (!ctx.config.passwordSignIn) throw passwordSignInOff()
        const address = clientGroupOf(request, server, ctx.config.trustProxyHops)
        const { user, session } = await resetPassword(ctx, { secret: body.secret, password: body.password, address })
        await recordAudit(ctx, {
          action: 'user.password_set',
          actor: { via: 'api', userId: user.id, name: user.name, address },
          userId: user.id,
          detail: { name: user.name, via: 'password reset' },
        })
        const data = session ? toSignInDto(session) : { user: { id: user.id, name: user.name }, secondFactorRequired: true as const }
        return { success: true as const, data }
      },
      {
        parse: jsonBody(ResetCompleteBody, 'anyone'),
        body: ResetCompleteBody,
        response: {
          200: ResetDoneEnvelope,
          400: FailureSchema,
          403: FailureSchema,
          404: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          503: FailureSchema,
        },
        detail: {
          summary: 'Choose the new password of a mailed reset link (once, within 30 minutes); signs in, ends other sessions',
          description:
            'With two-factor sign-in on, it only sets the password and answers {"user", "secondFactorRequired": true}: the session comes from POST /api/auth/login with the code.',
          tags,
          security: [],
        },
      },
    )
    .post(
      '/auth/proxy',
      async ({ request, server, set }) => {
        const header = ctx.config.authProxyHeader
        if (header === undefined) throw notFound('No authenticating proxy is set up (PDFSHARE_AUTH_PROXY_HEADER)')
        // The connection's own address: a header (X-Forwarded-For or any other) is never believed for this.
        const peer = server?.requestIP(request)?.address ?? ''
        const { user, created } = await proxyUser(ctx, {
          peer,
          name: request.headers.get(header),
          secret: request.headers.get(PROXY_SECRET_HEADER),
          trusted: fromProxy,
        })
        const address = clientGroupOf(request, server, ctx.config.trustProxyHops)
        const actor = { via: 'api' as const, userId: user.id, name: user.name, address }
        if (created)
          await recordAudit(ctx, { action: 'user.added', actor, userId: user.id, detail: { name: user.name, via: 'auth proxy' } })
        if (user.disabledAt !== null) throw accountDisabled()
        set.headers['cache-control'] = 'no-store'
        return { success: true as const, data: toSignInDto(await startSession(ctx, user, { address, method: 'auth proxy' })) }
      },
      {
        response: { 200: SignInEnvelope, 400: FailureSchema, 401: FailureSchema, 403: FailureSchema, 404: FailureSchema },
        detail: {
          summary: 'Sign in the user an authenticating proxy names (PDFSHARE_AUTH_PROXY_HEADER), from its addresses only',
          description:
            'Believed only on a connection from PDFSHARE_AUTH_PROXY_ADDRESSES, and with PDFSHARE_AUTH_PROXY_SECRET set, only with that secret in the Pdfshare-Proxy-Secret header.',
          tags,
          security: [],
        },
      },
    )
    .post(
      '/auth/passkey/options',
      async ({ request, server }) => ({
        success: true as const,
        data: await starts.passkeyPrompt(clientGroupOf(request, server, ctx.config.trustProxyHops)),
      }),
      {
        response: { 200: PasskeyPromptEnvelope, 400: FailureSchema, 429: FailureSchema },
        detail: {
          summary: 'Options for the browser’s passkey prompt (valid 5 minutes, answered once)',
          description:
            'Limited per client address to PDFSHARE_RATE_LIMIT_LOGIN a minute; a passkey sign-in that gets in gives its prompt back.',
          tags,
          security: [],
        },
      },
    )
    .post(
      '/auth/passkey',
      async ({ request, server, body }) => {
        const address = clientGroupOf(request, server, ctx.config.trustProxyHops)
        // The outline was checked by the schema; @simplewebauthn/server checks the rest, byte by byte.
        const response = body.credential as AuthenticationResponseJSON
        // A failed passkey counts against the sign-in limits like a wrong password (per address, and per passkey).
        const session = await attempt({ address, name: `passkey:${response.id}` }, async () => {
          const user = await signInWithPasskey(ctx, response).catch(async (error: unknown) => {
            await recordAudit(ctx, {
              action: 'sign_in.failed',
              actor: { via: 'api', userId: null, name: ANONYMOUS, address },
              userId: null,
              detail: { method: 'passkey', name: null, reason: error instanceof Error ? error.message : 'refused' },
            })
            throw error
          })
          const session = await startSession(ctx, user, { address, method: 'passkey' })
          await starts.passkeySignedIn(address)
          return session
        })
        return { success: true as const, data: toSignInDto(session) }
      },
      {
        parse: jsonBody(PasskeySignInBody, 'anyone'),
        body: PasskeySignInBody,
        response: {
          200: SignInEnvelope,
          400: FailureSchema,
          401: FailureSchema,
          403: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          429: FailureSchema,
        },
        detail: {
          summary: 'Sign in with a passkey alone (no password, no code): a session token like a password sign-in',
          tags,
          security: [],
        },
      },
    )
    .post(
      '/auth/sso',
      async ({ request, server, body, set }) => {
        const browsers = cookieValues(request.headers.get('cookie'), HANDOFF_COOKIE)
        const userId = await collectHandoff(ctx, { code: body.code, browsers })
        set.headers['set-cookie'] = setCookieHeader(HANDOFF_COOKIE, 'gone', { ...handoffCookie(ctx.config.publicUrl), lifetimeMs: 0 })
        const user = await userWithId(ctx, userId)
        const address = clientGroupOf(request, server, ctx.config.trustProxyHops)
        return { success: true as const, data: toSignInDto(await startSession(ctx, user, { address, method: 'sso' })) }
      },
      {
        parse: jsonBody(SsoExchangeBody, 'anyone'),
        body: SsoExchangeBody,
        response: { 200: SignInEnvelope, 400: FailureSchema, 401: FailureSchema, 413: FailureSchema, 415: FailureSchema },
        detail: {
          summary: 'Finish a single sign-on: its one-time code (valid a minute, used once) for a session token',
          description:
            'The dashboard calls this with the code in its address after /auth/oidc/callback (docs/sign-in.md), from the browser that signed in: the code works only with the HttpOnly cookie pdfshare_sso that the callback set there.',
          tags,
          security: [],
        },
      },
    )
    .post(
      '/auth/logout',
      async ({ caller, audit }) => {
        const revoked = await revokeOwnToken(ctx, { userId: caller.userId, id: caller.tokenId })
        await audit('token.revoked', { tokenId: revoked.id, label: revoked.label, reason: 'sign-out' })
        return { success: true as const, data: { id: revoked.id } }
      },
      {
        auth: true,
        response: { 200: RevokedEnvelope, ...authFailures },
        detail: { summary: 'Revoke the token this request was made with (sign out)', tags },
      },
    )
    .get(
      '/tokens',
      async ({ caller }) => {
        const rows = await listActiveTokens(ctx, caller.userId)
        return { success: true as const, data: rows.map((row) => toTokenDto(row, caller.tokenId)) }
      },
      {
        auth: 'account',
        response: { 200: TokenListEnvelope, ...authFailures },
        detail: { summary: "The caller's tokens that still work, newest first (never their values)", tags },
      },
    )
    .post(
      '/tokens',
      async ({ body, caller, set, audit }) => {
        const issued = await issueOwnToken(ctx, { issuer: caller, ...newTokenFrom(body) })
        await audit('token.issued', tokenFacts(issued.token))
        set.status = 201
        return { success: true as const, data: toIssuedTokenDto(issued) }
      },
      {
        auth: 'account',
        parse: jsonBody(NewTokenBody, 'account'),
        body: NewTokenBody,
        response: {
          201: IssuedTokenEnvelope,
          400: FailureSchema,
          403: FailureSchema,
          413: FailureSchema,
          415: FailureSchema,
          ...authFailures,
        },
        detail: { summary: 'Create an API token for the caller; its value is in this answer only', tags },
      },
    )
    .delete(
      '/tokens/:id',
      async ({ caller, params, audit }) => {
        const revoked = await revokeOwnToken(ctx, { userId: caller.userId, id: params.id })
        await audit('token.revoked', { tokenId: revoked.id, label: revoked.label })
        return { success: true as const, data: { id: revoked.id } }
      },
      {
        auth: 'account',
        params: TokenIdParams,
        response: { 200: RevokedEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: "Revoke one of the caller's tokens (another user's is 404, like an unknown one)", tags },
      },
    )
}
