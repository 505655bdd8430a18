import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { addPasskey, listPasskeys, registrationOptions, removePasskey } from '../../core/accounts/passkeys'
import { userWithId } from '../../core/accounts/users/users'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import { NewPasskeyBody, PasskeyEnvelope, PasskeyIdParams, PasskeyListEnvelope, PromptEnvelope, RemovedPasskeyEnvelope } from './model'
import { toPasskeyDto } from './presenter'

const tags = ['account']

/** The caller's own passkeys: GET/POST /api/me/passkeys, POST /api/me/passkeys/options, DELETE /api/me/passkeys/:id. */
export function passkeyRoutes(ctx: AppContext, auth: AuthGuard) {
  return new Elysia({ name: 'passkeys', prefix: '/api/me/passkeys' })
    .use(auth)
    .get('', async ({ caller }) => ({ success: true as const, data: (await listPasskeys(ctx, caller.userId)).map(toPasskeyDto) }), {
      auth: 'account',
      response: { 200: PasskeyListEnvelope, ...authFailures },
      detail: { summary: 'Your passkeys, oldest first', tags },
    })
    .post(
      '/options',
      async ({ caller }) => ({ success: true as const, data: await registrationOptions(ctx, await userWithId(ctx, caller.userId)) }),
      {
        auth: 'account',
        response: { 200: PromptEnvelope, 400: FailureSchema, ...authFailures },
        detail: {
          summary: 'Options for the browser to make a new passkey (valid 5 minutes, answered once)',
          description:
            'A 400 when PDFSHARE_PUBLIC_URL is an IP address or plain http other than localhost: browsers refuse passkeys there.',
          tags,
        },
      },
    )
    .post(
      '',
      async ({ caller, body, set, audit }) => {
        const user = await userWithId(ctx, caller.userId)
        // The outline was checked by the schema; @simplewebauthn/server checks the rest, byte by byte.
        const response = body.credential as RegistrationResponseJSON
        const passkey = await addPasskey(ctx, { user, response, name: body.name.trim() })
        await audit('passkey.added', { passkeyId: passkey.id, name: passkey.name })
        set.status = 201
        return { success: true as const, data: toPasskeyDto(passkey) }
      },
      {
        auth: 'account',
        parse: jsonBody(NewPasskeyBody, 'account'),
        body: NewPasskeyBody,
        response: { 201: PasskeyEnvelope, 400: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures },
        detail: { summary: 'Keep the passkey the browser made with the options', tags },
      },
    )
    .delete(
      '/:id',
      async ({ caller, params, audit }) => {
        const removed = await removePasskey(ctx, { userId: caller.userId, id: params.id })
        await audit('passkey.removed', { passkeyId: removed.id, name: removed.name })
        return { success: true as const, data: { id: removed.id } }
      },
      {
        auth: 'account',
        params: PasskeyIdParams,
        response: { 200: RemovedPasskeyEnvelope, 404: FailureSchema, ...authFailures },
        detail: { summary: 'Remove one of your passkeys', tags },
      },
    )
}
