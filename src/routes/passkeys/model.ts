import { t, type Static, type TSchema } from 'elysia'
import { currentPassword } from '../../http/schemas'

/** Passkeys' shapes (docs/sign-in.md, Passkeys), written once for routes, document and dashboard. */

const OBJECT = { additionalProperties: true }

/**
 * What the browser answers to `navigator.credentials.create` or `.get`, as @simplewebauthn/browser encodes it.
 * Only its outline is checked here; @simplewebauthn/server checks every byte of it.
 */
export const WebAuthnAnswer = t.Object(
  {
    id: t.String({ minLength: 1, maxLength: 1024 }),
    rawId: t.String({ minLength: 1, maxLength: 1024 }),
    type: t.Literal('public-key'),
    response: t.Object({ clientDataJSON: t.String({ maxLength: 16_384 }) }, OBJECT),
    clientExtensionResults: t.Object({}, OBJECT),
    authenticatorAttachment: t.Optional(t.String({ maxLength: 32 })),
  },
  { ...OBJECT, error: () => 'credential must be the answer of the browser’s passkey prompt' },
)

// Adding or removing a passkey changes how the account signs in: each takes the current password (http/schemas.ts).
const BODY = { ...OBJECT, error: () => 'The body must be a JSON object' }
export const NewPasskeyBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100, error: () => 'name must be 1 to 100 characters, e.g. "Laptop"' }),
    credential: WebAuthnAnswer,
    password: currentPassword,
  },
  BODY,
)
export const ProofBody = t.Object({ password: currentPassword }, BODY)

export const PasskeySchema = t.Object(
  {
    id: t.String(),
    name: t.String(),
    createdAt: t.String(),
    lastUsedAt: t.Union([t.String(), t.Null()]),
  },
  { title: 'Passkey' },
)
export type PasskeyDto = Static<typeof PasskeySchema>

/** The options for the browser's prompt to make a passkey, passed to @simplewebauthn/browser as they are. */
export const PromptOptions = t.Object(
  {
    challenge: t.String(),
    rp: t.Object({ name: t.String(), id: t.Optional(t.String()) }, OBJECT),
    user: t.Object({ id: t.String(), name: t.String(), displayName: t.String() }, OBJECT),
    pubKeyCredParams: t.Array(t.Object({ alg: t.Number(), type: t.Literal('public-key') }, OBJECT)),
  },
  { ...OBJECT, description: 'WebAuthn creation options (JSON form)' },
)

const success = <T extends TSchema>(data: T) => t.Object({ success: t.Literal(true), data })
export const PasskeyListEnvelope = success(t.Array(PasskeySchema))
export const PasskeyEnvelope = success(PasskeySchema)
export const PromptEnvelope = success(PromptOptions)
export const RemovedPasskeyEnvelope = success(t.Object({ id: t.String() }))
export const PasskeyIdParams = t.Object({ id: t.String({ maxLength: 1024 }) })
