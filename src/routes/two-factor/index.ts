import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { authFailures, FailureSchema, REAUTHENTICATION_NOTE as PROOF } from '../../http/schemas'
import { reauthenticate } from '../../core/accounts/reauthenticate'
import { confirmTwoFactor, renewRecoveryCodes, startTwoFactor, turnOffTwoFactor } from '../../core/accounts/two-factor'
import { CodeBody, PasswordBody, RecoveryCodesEnvelope, SetupEnvelope, TurnedOffEnvelope } from './model'

const tags = ['account']
const bodyFailures = { 400: FailureSchema, 403: FailureSchema, 409: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures }

/**
 * The caller's own two-factor sign-in: POST /api/me/two-factor (a new secret, pending), …/confirm (a code turns it
 * on; the recovery codes), …/recovery-codes (new ones), …/off. Each changes how the account signs in, so each takes
 * a session and the password (core/accounts/reauthenticate.ts).
 */
export function twoFactorRoutes(ctx: AppContext, auth: AuthGuard) {
  return new Elysia({ name: 'two-factor', prefix: '/api/me/two-factor' })
    .use(auth)
    .post(
      '',
      async ({ caller, body }) => {
        const owner = await reauthenticate(ctx, { caller, password: body.password })
        return { success: true as const, data: await startTwoFactor(ctx, owner) }
      },
      {
        auth: 'account',
        parse: jsonBody(PasswordBody, 'account'),
        body: PasswordBody,
        response: { 200: SetupEnvelope, ...bodyFailures },
        detail: {
          summary: 'Set up two-factor sign-in: a new TOTP secret for an authenticator app, pending until confirmed',
          description: `Sign-in asks for codes only after POST /api/me/two-factor/confirm. Starting again replaces a pending secret. ${PROOF}`,
          tags,
        },
      },
    )
    .post(
      '/confirm',
      async ({ caller, body, audit }) => {
        const owner = await reauthenticate(ctx, { caller, password: body.password })
        const recoveryCodes = await confirmTwoFactor(ctx, { owner, code: body.code })
        await audit('two_factor.enabled', {})
        return { success: true as const, data: { recoveryCodes } }
      },
      {
        auth: 'account',
        parse: jsonBody(CodeBody, 'account'),
        body: CodeBody,
        response: { 200: RecoveryCodesEnvelope, ...bodyFailures },
        detail: {
          summary: 'Turn two-factor sign-in on with a code from the app; answers ten recovery codes, once',
          description: PROOF,
          tags,
        },
      },
    )
    .post(
      '/recovery-codes',
      async ({ caller, body, audit }) => {
        const recoveryCodes = await renewRecoveryCodes(ctx, await reauthenticate(ctx, { caller, password: body.password }))
        await audit('two_factor.recovery_codes_renewed', {})
        return { success: true as const, data: { recoveryCodes } }
      },
      {
        auth: 'account',
        parse: jsonBody(PasswordBody, 'account'),
        body: PasswordBody,
        response: { 200: RecoveryCodesEnvelope, ...bodyFailures },
        detail: { summary: 'New recovery codes in place of the old ones (needs the password)', description: PROOF, tags },
      },
    )
    .post(
      '/off',
      async ({ caller, body, audit }) => {
        await turnOffTwoFactor(ctx, await reauthenticate(ctx, { caller, password: body.password }))
        await audit('two_factor.disabled', {})
        return { success: true as const, data: { enabled: false as const } }
      },
      {
        auth: 'account',
        parse: jsonBody(PasswordBody, 'account'),
        body: PasswordBody,
        response: { 200: TurnedOffEnvelope, ...bodyFailures },
        detail: { summary: 'Turn two-factor sign-in off (needs the password)', description: PROOF, tags },
      },
    )
}
