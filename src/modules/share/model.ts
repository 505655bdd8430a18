/**
 * The share module's shapes. Its routes take no JSON bodies and answer HTML and bytes, so there is no
 * t-schema here (they are also kept out of the OpenAPI document): only the types its parts pass around.
 */

/** What a request says about itself, for deciding whether it is a human visit. */
export type Visit = {
  method: string
  userAgent: string | null
  /** Sec-Purpose, Purpose, X-Purpose or X-Moz: how browsers mark prefetches and previews. */
  purpose: string | null
  /** The visitor carries our "seen" cookie for this file: they were counted less than 30 minutes ago. */
  seenCookie: boolean
  clientIp: string
}
