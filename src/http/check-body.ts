import type { Agreement } from '../lib/rule'
import type { Static, TSchema } from 'elysia'
import { TypeCompiler } from 'elysia/type-system'
import { badRequest } from '../errors'

type ObjectSchema = TSchema & { properties: Record<string, TSchema>; required?: string[] }

/** A rule between two fields, checked in the schema's order right after the field `after`. */

/**
 * The check of a body against a t.Object, the one the OpenAPI document shows: a body that passes is returned as
 * the schema's type; anything else is a 400 whose text is the `error` of the first property that fails, in the
 * schema's order (the object's own `error` when it is not an object at all), so a body with several mistakes
 * always gets the same answer. JSON routes have Elysia check their `body` schema, and their refusal is worded
 * here (bodyProblem, from lifecycle.ts); forms and the update route, which takes JSON or an upload, read their
 * own bodies (`parse: 'none'`) and are checked by a bodyChecker.
 */
export function bodyChecker<T extends ObjectSchema>(schema: T, agreements: Agreement<Static<T>>[] = []): (value: unknown) => Static<T> {
  // Compiled at the first body it checks, not when its module loads: every process of the binary loads every
  // module (a CLI command, a preview renderer), and compiling these checks was a tenth of a start's CPU.
  let firstProblem: ((value: unknown) => string | undefined) | undefined
  return (value) => {
    firstProblem ??= problemFinder(schema, agreements)
    const problem = firstProblem(value)
    if (problem !== undefined) throw badRequest(problem)
    return value as Static<T>
  }
}

/**
 * What is wrong with a body that failed its schema, worded as bodyChecker words it; undefined for a schema that
 * is not a t.Object. Each app's request lifecycle makes one, which keeps the check it compiled for each schema.
 */
export function bodyProblems(): (schema: TSchema, value: unknown) => string | undefined {
  const finders = new WeakMap<TSchema, (value: unknown) => string | undefined>()
  return (schema, value) => {
    if (!('properties' in schema) || typeof schema.properties !== 'object') return undefined
    let finder = finders.get(schema)
    if (!finder) {
      finder = problemFinder(schema as ObjectSchema, [])
      finders.set(schema, finder)
    }
    return finder(value)
  }
}

/** The refusal of a JSON body that is not an object at all: the schema's own `error`, as bodyChecker words it. */
export function notAnObject(schema: TSchema, value: unknown): string {
  return errorText(schema, value, NOT_AN_OBJECT)
}

const NOT_AN_OBJECT = 'The body must be a JSON object'

function problemFinder<T extends ObjectSchema>(schema: T, agreements: Agreement<Static<T>>[]): (value: unknown) => string | undefined {
  const whole = TypeCompiler.Compile(schema)
  const properties = Object.entries(schema.properties).map(([key, property]) => ({
    key,
    property,
    check: TypeCompiler.Compile(property),
    required: schema.required?.includes(key) ?? false,
  }))

  return (value: unknown): string | undefined => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return notAnObject(schema, value)
    const body = value as Record<string, unknown>
    for (const { key, property, check, required } of properties) {
      const found = body[key]
      if (found === undefined ? required : !check.Check(found)) return errorText(property, found, `${key} is not valid`)
      for (const agreement of agreements) {
        if (agreement.after === key) {
          const problem = agreement.problem(body as Static<T>)
          if (problem) return problem
        }
      }
    }
    return whole.Check(value) ? undefined : errorText(schema, value, 'The body does not match its schema')
  }
}

/** A schema's `error`: a text, or a function of the value found (Elysia's convention for custom messages). */
function errorText(schema: TSchema, found: unknown, fallback: string): string {
  const error: unknown = (schema as { error?: unknown }).error
  if (typeof error === 'function') return String(error({ type: 'validation', on: 'body', found }) ?? fallback)
  return typeof error === 'string' ? error : fallback
}
