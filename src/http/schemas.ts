import { t, type TSchema } from 'elysia'

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
