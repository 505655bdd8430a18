import { t, type Static, type TSchema } from 'elysia'
import { currentPassword, oneOf } from '../../http/schemas'
import { type Rule, withRule } from '../../http/rule-schema'
import { parseTtl } from '../../lib/durations'
import { codePointLength } from '../../lib/text'
import { DEFAULT_TOKEN_TTL, SCOPE_MEANINGS, SCOPES, TOKEN_LABEL_MAX } from '../../shared/account-shapes'
import { labelRule } from '../../core/accounts/tokens/label-rules'
import { languageRule } from '../../core/i18n/language-rule'
import { LANGUAGES } from '../../shared/languages'

/**
 * The account's request and response shapes, written once: the routes check bodies and answers with them,
 * the OpenAPI document shows them, and the types come from them, for the server and the dashboard alike.
 */

// Unknown fields are ignored, as in every JSON body of the API. Said explicitly: Elysia would otherwise set
// additionalProperties on these schema objects when it first compiles their routes, changing the OpenAPI document.
const NOT_AN_OBJECT = { additionalProperties: true, error: () => 'The body must be a JSON object' }

/** A string of `min` to `max` code points (TypeBox's own minLength and maxLength count UTF-16 units). */
const codePointsRule =
  (name: string, min: number, max: number): Rule =>
  (value) => {
    if (typeof value !== 'string') return `${name} must be a string`
    const length = codePointLength(value)
    return length < min || length > max ? `${name} must be ${min} to ${max} characters` : undefined
  }
const codePoints = (name: string, min: number, max: number) =>
  withRule(t.String({ minLength: min, maxLength: max }), codePointsRule(name, min, max))

export const LoginBody = t.Object(
  {
    username: codePoints('username', 1, 64),
    password: codePoints('password', 1, 1024),
    code: t.Optional(
      t.String({
        maxLength: 64,
        description: 'With two-factor sign-in on: the 6 digits of the authenticator app, or a recovery code',
        error: () => 'code must be the 6 digits of the authenticator app or a recovery code',
      }),
    ),
  },
  NOT_AN_OBJECT,
)

/** POST /api/auth/sso: the one-time code a finished single sign-on left in the dashboard's address. */
export const SsoExchangeBody = t.Object(
  {
    code: t.String({
      minLength: 1,
      maxLength: 64,
      description: 'The part of the address after #/sso/',
      error: () => 'code must be the one-time code of a single sign-on',
    }),
  },
  NOT_AN_OBJECT,
)

/** POST /api/auth/passkey: the browser's answer to the passkey prompt (outline only; the server library checks the rest). */
export const PasskeySignInBody = t.Object(
  {
    credential: t.Object(
      {
        id: t.String({ minLength: 1, maxLength: 1024 }),
        rawId: t.String({ minLength: 1, maxLength: 1024 }),
        type: t.Literal('public-key'),
        response: t.Object({ clientDataJSON: t.String({ maxLength: 16_384 }) }, { additionalProperties: true }),
        clientExtensionResults: t.Object({}, { additionalProperties: true }),
      },
      { additionalProperties: true, error: () => 'credential must be the answer of the browser’s passkey prompt' },
    ),
  },
  NOT_AN_OBJECT,
)
export const PasskeyPromptEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Object({ challenge: t.String() }, { additionalProperties: true, description: 'WebAuthn options (JSON form)' }),
})

const emailField = t.String({ minLength: 3, maxLength: 254, format: 'email', error: () => 'email must be an email address' })

/** POST /api/auth/password-reset: the address a reset link goes to, if it is a user's. */
export const ResetRequestBody = t.Object({ email: emailField }, NOT_AN_OBJECT)
/** POST /api/auth/password-reset/complete: the secret of the mailed link and the new password. */
export const ResetCompleteBody = t.Object(
  {
    secret: t.String({
      minLength: 1,
      maxLength: 64,
      description: 'The part of the link after #/reset/',
      error: () => 'secret must be the secret of a reset link',
    }),
    password: codePoints('password', 1, 1024),
  },
  NOT_AN_OBJECT,
)
/**
 * PUT /api/me/email: where password resets go, once confirmed by a link mailed to it; null removes it. It changes how
 * the account signs in: the password too.
 */
/** PATCH /api/me: the account's own settings; a field left out stays as it is. */
export const AccountBody = t.Object(
  {
    language: t.Optional(
      withRule(
        t.Union([t.String({ maxLength: 16 }), t.Null()], {
          description: `The language of the mails this account gets: one of ${LANGUAGES.join(', ')}; null: none of its own (docs/languages.md, Mails)`,
        }),
        languageRule,
      ),
    ),
  },
  NOT_AN_OBJECT,
)
export const EmailBody = t.Object({ email: t.Union([emailField, t.Null()]), password: currentPassword }, NOT_AN_OBJECT)
export const EmailEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Object({
    email: t.Union([t.String(), t.Null()], { description: 'The email resets go to now (a new one counts once confirmed)' }),
    pendingEmail: t.Union([t.String(), t.Null()], { description: 'The address a confirmation link was mailed to' }),
    message: t.String(),
  }),
})
/** POST /api/auth/email/confirm: the secret of the link mailed to a new address. */
export const EmailConfirmBody = t.Object(
  {
    secret: t.String({
      minLength: 1,
      maxLength: 64,
      description: 'The part of the link after #/email/',
      error: () => 'secret must be the secret of a confirmation link',
    }),
  },
  NOT_AN_OBJECT,
)
export const EmailConfirmedEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ email: t.String() }) })

const SsoLinkSchema = t.Union(
  [
    t.Object({
      email: t.String({ description: 'The verified email an admin asked to open this account through single sign-on' }),
      allowed: t.Boolean({ description: 'Whether you allowed it (POST /api/me/sso-link); until then it does not open an account in use' }),
    }),
    t.Null(),
  ],
  { description: "An admin's request that a single sign-on open this account (docs/sign-in.md, Who gets in); null: none" },
)
/** POST /api/me/sso-link: the owner allows the link an admin asked for, naming its email as they saw it (and their password). */
export const SsoLinkBody = t.Object(
  {
    email: t.String({
      minLength: 3,
      maxLength: 254,
      description: 'The email of the request, as GET /api/me shows it',
      error: () => 'email must be the email of the request',
    }),
    password: currentPassword,
  },
  NOT_AN_OBJECT,
)
export const SsoLinkEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ ssoLink: SsoLinkSchema }) })
export const ResetRequestedEnvelope = t.Object({ success: t.Literal(true), data: t.Object({ message: t.String() }) })

/** POST /api/auth/accept-invitation: the secret of an admin's invitation link, and the new account's name and password. */
export const AcceptInvitationBody = t.Object(
  {
    invitation: t.String({
      minLength: 1,
      maxLength: 64,
      description: 'The part of the invitation link after #/join/',
      error: () => 'invitation must be the secret of an invitation link',
    }),
    username: codePoints('username', 1, 64),
    password: codePoints('password', 1, 1024),
    email: t.Optional(
      t.String({
        minLength: 3,
        maxLength: 254,
        format: 'email',
        description: 'Your email for password resets: a link to confirm it is mailed to it (needs PDFSHARE_SMTP_URL)',
        error: () => 'email must be an email address',
      }),
    ),
  },
  NOT_AN_OBJECT,
)

const ttlRule: Rule = (value) =>
  typeof value === 'string' && parseTtl(value) !== undefined
    ? undefined
    : 'ttl must be a lifetime such as 90d, 12h, 30m, 2w, 1y, or "never"'

const scopesRule: Rule = (value) =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((scope) => (SCOPES as readonly unknown[]).includes(scope)) &&
  new Set(value).size === value.length
    ? undefined
    : `scopes must be a list of different scopes, at least one, from ${SCOPES.join(', ')}`

export const ScopeSchema = oneOf(SCOPES, { description: SCOPES.map((scope) => `${scope}: ${SCOPE_MEANINGS[scope]}`).join('; ') })

export const NewTokenBody = t.Object(
  {
    label: withRule(
      t.String({ minLength: 1, maxLength: TOKEN_LABEL_MAX, description: 'Shown in the token list; not blank, no control characters' }),
      labelRule,
    ),
    ttl: t.Optional(
      withRule(
        t.String({ default: DEFAULT_TOKEN_TTL, description: 'Lifetime like the CLI\'s --ttl: 90d, 12h, 30m, 2w, 1y or "never"' }),
        ttlRule,
      ),
    ),
    scopes: t.Optional(
      withRule(
        t.Array(ScopeSchema, {
          minItems: 1,
          uniqueItems: true,
          description: 'What the token may do (docs/api.md, Scopes). Omitted: what the token issuing it may do',
        }),
        scopesRule,
      ),
    ),
    team: t.Optional(
      t.String({
        maxLength: 64,
        description:
          'A team you are a member of: the token acts for the team, with what both its scopes and your role allow (docs/teams.md)',
      }),
    ),
  },
  NOT_AN_OBJECT,
)

const expiresAt = t.Union([t.String(), t.Null()], { description: 'null: never expires' })

const tokenScopes = t.Union([t.Array(ScopeSchema), t.Null()], {
  description: 'What the token may do; null: everything its user may (a token issued without scopes)',
})

const teamOfToken = t.Union([t.String(), t.Null()], { description: 'The team a team token acts for; null: a personal token' })

export const TokenSchema = t.Object({
  id: t.String({ description: "The token's jti; DELETE /api/tokens/{id} revokes it" }),
  label: t.String(),
  scopes: tokenScopes,
  createdAt: t.String(),
  expiresAt,
  current: t.Boolean({ description: 'The token this request was made with' }),
  team: teamOfToken,
})
export type TokenDto = Static<typeof TokenSchema>

export const IssuedTokenSchema = t.Object({
  token: t.String({ description: 'The JWT. Shown once; only its id is kept.' }),
  id: t.String(),
  label: t.String(),
  scopes: tokenScopes,
  expiresAt,
  team: teamOfToken,
})
export type IssuedTokenDto = Static<typeof IssuedTokenSchema>

export const SignInSchema = t.Object({
  token: t.String(),
  tokenId: t.String(),
  label: t.String(),
  expiresAt,
  user: t.Object({ id: t.String(), name: t.String() }),
})
export type SignInDto = Static<typeof SignInSchema>

export const MeSchema = t.Object({
  id: t.String(),
  name: t.String(),
  admin: t.Boolean({ description: 'An admin manages users (docs/api.md, Admins)' }),
  hasPassword: t.Boolean({ description: 'Whether the account can sign in with a password' }),
  email: t.Union([t.String(), t.Null()], { description: 'Where a password reset is mailed' }),
  pendingEmail: t.Union([t.String(), t.Null()], { description: 'A new email waiting for the link mailed to it (PUT /api/me/email)' }),
  language: t.Union([t.UnionEnum(LANGUAGES), t.Null()], {
    description:
      'The language of the mails this account gets (PATCH /api/me); null: the one of the request that caused a mail, else the instance default',
  }),
  ssoLink: SsoLinkSchema,
  twoFactor: t.Object({
    enabled: t.Boolean({ description: 'Whether a password sign-in also needs a code (docs/api.md, Two-factor sign-in)' }),
    recoveryCodesLeft: t.Integer(),
  }),
  usage: t.Object({ files: t.Integer(), bytes: t.Integer() }),
  limits: t.Object({
    maxStorageBytes: t.Union([t.Integer(), t.Null()], { description: 'null = unlimited' }),
    maxFiles: t.Union([t.Integer(), t.Null()], { description: 'null = unlimited' }),
    maxFileSize: t.Integer({ description: 'Largest accepted PDF in bytes' }),
  }),
})
export type MeDto = Static<typeof MeSchema>

const success = <T extends TSchema>(data: T) => t.Object({ success: t.Literal(true), data })
export const MeEnvelope = success(MeSchema)
export const SignInEnvelope = success(SignInSchema)
/** A reset of an account with two-factor sign-in on: the password is set, and nobody is signed in. */
export const PasswordSetSchema = t.Object({
  user: t.Object({ id: t.String(), name: t.String() }),
  secondFactorRequired: t.Literal(true, { description: 'Sign in with the new password and a code (POST /api/auth/login)' }),
})
export const ResetDoneEnvelope = success(t.Union([SignInSchema, PasswordSetSchema]))
export const TokenListEnvelope = success(t.Array(TokenSchema))
export const IssuedTokenEnvelope = success(IssuedTokenSchema)
/** A revoked token: its id. */
export const RevokedEnvelope = success(t.Object({ id: t.String() }))

export const TokenIdParams = t.Object({ id: t.String({ maxLength: 64 }) })
