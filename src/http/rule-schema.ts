import type { TSchema } from 'elysia'
import { TypeRegistry } from 'elysia/type-system'

import type { Rule } from '../lib/rule'

export type { Rule }

const RULE_KIND = 'pdfshare.Rule'
// TypeBox marks a schema's kind with this global symbol; its checkers dispatch on it.
const KIND = Symbol.for('TypeBox.Kind')
const RULE = Symbol('pdfshare.rule')

// Registered with Elysia's own TypeBox, so its compiled checkers (and check-body.ts) run the rule.
if (!TypeRegistry.Has(RULE_KIND)) {
  TypeRegistry.Set(RULE_KIND, (schema: { [RULE]: Rule }, value) => schema[RULE](value) === undefined)
}

/**
 * A schema whose values are judged by one of our rules instead of TypeBox's keywords, for what JSON Schema
 * cannot say: lengths in code points after NFC, the characters a text may not hold, booleans spelled "yes"
 * or "off". `documented` is what the OpenAPI document shows (and where the static type comes from); its
 * limits must come from the same constants as the rule's.
 *
 * The rule's sentence is also the schema's `error`, the key Elysia takes a validation message from. Both
 * are functions, which the JSON of the OpenAPI document leaves out, so the document stays plain JSON Schema.
 */
export function withRule<T extends TSchema>(documented: T, rule: Rule): T {
  return { ...documented, [KIND]: RULE_KIND, [RULE]: rule, error: ({ found }: { found: unknown }) => rule(found) }
}
