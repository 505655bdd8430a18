import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { addPasskey, listPasskeys, registrationOptions, removePasskey } from '../../core/accounts/passkeys'
import { reauthenticate } from '../../core/accounts/reauthenticate'
import { type AuthGuard, jsonBody } from '../../http/auth-guard'
import { authFailures, FailureSchema, REAUTHENTICATION_NOTE } from '../../http/schemas'
import {
  NewPasskeyBody,
  PasskeyEnvelope,
  PasskeyIdParams,
  PasskeyListEnvelope,
  PromptEnvelope,
  ProofBody,
  RemovedPasskeyEnvelope,
} from './model'
import { toPasskeyDto } from '../../core/accounts/passkeys-presenter'

const tags = ['account']
const bodyFailures = { 400: FailureSchema, 403: FailureSchema, 413: FailureSchema, 415: FailureSchema, ...authFailures }

/**
 * The caller's own passkeys: GET/POST /api/me/passkeys, POST /api/me/passkeys/options, DELETE /api/me/passkeys/:id.
 * A passkey signs in with every scope, so making or removing one takes a session and the password
 * (core/accounts/reauthenticate.ts); the options too, so a token that may not never even starts one.
 */
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
      async ({ caller, body }) => {
        const owner = await reauthenticate(ctx, { caller, password: body.password })
        return { success: true as const, data: await registrationOptions(ctx, owner) }
      },
      {
        auth: 'account',
        parse: jsonBody(ProofBody, 'account'),
        body: ProofBody,
        response: { 200: PromptEnvelope, ...bodyFailures },
        detail: {
          summary: 'Options for the browser to make a new passkey (valid 5 minutes, answered once)',
          description: `A 400 when PDFSHARE_PUBLIC_URL is an IP address or plain http other than localhost: browsers refuse passkeys there. ${REAUTHENTICATION_NOTE}`,
          tags,
        },
      },
    )
    .post(
      '',
      async ({ caller, body, set, audit }) => {
        const owner = await reauthenticate(ctx, { caller, password: body.password })
        // The outline was checked by the schema; @simplewebauthn/server checks the rest, byte by byte.
        const response = body.credential as RegistrationResponseJSON
        const passkey = await addPasskey(ctx, { owner, response, name: body.name.trim() })
        await audit('passkey.added', { passkeyId: passkey.id, name: passkey.name })
        set.status = 201
        return { success: true as const, data: toPasskeyDto(passkey) }
      },
      {
        auth: 'account',
        parse: jsonBody(NewPasskeyBody, 'account'),
        body: NewPasskeyBody,
        response: { 201: PasskeyEnvelope, ...bodyFailures },
        detail: { summary: 'Keep the passkey the browser made with the options', description: REAUTHENTICATION_NOTE, tags },
      },
    )
    .delete(
      '/:id',
      async ({ caller, params, body, audit }) => {
        const owner = await reauthenticate(ctx, { caller, password: body.password })
        const removed = await removePasskey(ctx, { owner, id: params.id })
        await audit('passkey.removed', { passkeyId: removed.id, name: removed.name })
        return { success: true as const, data: { id: removed.id } }
      },
      {
        auth: 'account',
        params: PasskeyIdParams,
        parse: jsonBody(ProofBody, 'account'),
        body: ProofBody,
        response: { 200: RemovedPasskeyEnvelope, 404: FailureSchema, ...bodyFailures },
        detail: { summary: 'Remove one of your passkeys', description: REAUTHENTICATION_NOTE, tags },
      },
    )
}
