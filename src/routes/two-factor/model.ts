import { t, type TSchema } from 'elysia'
import { currentPassword } from '../../http/schemas'

/** Two-factor sign-in's shapes (docs/api.md, Two-factor sign-in), written once for routes, document and dashboard. */

// Unknown fields are ignored, as in every JSON body of the API.
const OBJECT = { additionalProperties: true, error: () => 'The body must be a JSON object' }

// Every route here changes how the account signs in: each takes the current password (http/schemas.ts).
export const CodeBody = t.Object(
  {
    code: t.String({ minLength: 1, maxLength: 64, error: () => 'code must be the 6 digits the authenticator app shows' }),
    password: currentPassword,
  },
  OBJECT,
)
export const PasswordBody = t.Object({ password: currentPassword }, OBJECT)

const success = <T extends TSchema>(data: T) => t.Object({ success: t.Literal(true), data })

export const SetupEnvelope = success(
  t.Object({
    secret: t.String({ description: 'The TOTP secret (base32), for an app that cannot read the QR code' }),
    uri: t.String({ description: 'The otpauth:// URI to show as a QR code' }),
  }),
)
export const RecoveryCodesEnvelope = success(
  t.Object({ recoveryCodes: t.Array(t.String(), { description: 'Each works once in place of a code; shown in this answer only' }) }),
)
export const TurnedOffEnvelope = success(t.Object({ enabled: t.Literal(false) }))
