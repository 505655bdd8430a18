/**
 * What our checks of a request's values say, as plain types: the core's rules (core/<concept>/rules.ts) are
 * written with them, and http/'s schemas run them (http/rule-schema.ts, http/check-body.ts).
 */

/** What is wrong with a value, as the sentence a client reads ("title must be at most 160 characters"), or undefined. */
export type Rule = (value: unknown) => string | undefined

/** A check across fields of a body, run once `after` passed its own rule: the sentence of what is wrong, or undefined. */
export type Agreement<T> = { after: keyof T & string; problem: (body: T) => string | undefined }
