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
