import { t, type TSchema } from 'elysia'
import type { TUnionEnum } from 'elysia/type-system/types'

/** The failure envelope `{ success: false, error, code }`, for the response schemas of every route and the OpenAPI document. */
export const FailureSchema = t.Object(
  {
    success: t.Literal(false),
    error: t.String({ description: 'Human-readable message' }),
    code: t.String({ description: 'Stable machine-readable code, e.g. invalid_request, not_found, file_too_large' }),
  },
  { title: 'Failure' },
)

/**
 * The current password, in the body of every change of how an account signs in (passkeys, two-factor sign-in, the
 * reset email): needed from an account that has one (core/accounts/reauthenticate.ts).
 */
export const currentPassword = t.Optional(
  t.String({
    minLength: 1,
    maxLength: 1024,
    description: 'Your current password (an account without one: a sign-in within PDFSHARE_RECENT_SIGN_IN instead)',
    error: () => 'password must be your current password',
  }),
)

/** What the OpenAPI document says of each route that changes how an account signs in. */
export const REAUTHENTICATION_NOTE =
  'Only a dashboard session may do this, with the current password in the body ({"password"}); an API token, whatever its scopes, gets a 403 reauthentication_required (docs/sign-in.md, Changing how you sign in).'

/** Failure responses every authenticated route may give. */
export const authFailures = { 401: FailureSchema, 429: FailureSchema } as const

/**
 * A request-body schema for the OpenAPI document of a route that reads its own body (`parse: 'none'`, so
 * that authentication runs before the body is read). TypeBox schemas are JSON Schema already; only the
 * static types differ.
 */
export function openApiSchema(schema: TSchema): Record<string, never> {
  return schema as unknown as Record<string, never>
}

/**
 * One of `values`, as a JSON Schema enum. Bare t.UnionEnum makes the first value the schema's default, which
 * Elysia then fills into an optional query or body field that was left out: here there is no default.
 */
export function oneOf<const T extends Readonly<[string, ...string[]]>>(
  values: T,
  options: Parameters<typeof t.UnionEnum>[1] = {},
): TUnionEnum<T> {
  return t.UnionEnum(values, { ...options, default: undefined })
}

/**
 * The `Idempotency-Key` request header of the writes that honour it (docs/api.md, Retrying writes), for the
 * OpenAPI document. Elysia's check of it never fails (any value is a string): its rules are checked after
 * authentication, by http/idempotency.ts, so a request without a valid token stays a 401 whatever it sends.
 */
export const IdempotencyHeaders = t.Object({
  'idempotency-key': t.Optional(
    t.String({
      description:
        'A key of 1 to 255 printable ASCII characters, new for each write (a UUID): a retry with the same key and the same request gets the first answer again (Idempotent-Replayed: true) instead of writing twice. Kept 24 h by default.',
      examples: ['8e03978e-40d5-43e8-bc93-6894a57f9324'],
    }),
  ),
})

/**
 * What a write that honours Idempotency-Key may also answer: 409 (the key's first request still runs), 422 (the
 * key was used for another request). Both are in the document; the type names only the 409, because Elysia types
 * a 422 as its own validation error, and a second 422 type makes the Eden client's error type `unknown` (the
 * dashboard reads every failure through the same envelope anyway).
 */
export const keyedFailures = { 409: FailureSchema, 422: FailureSchema } as { 409: typeof FailureSchema }
