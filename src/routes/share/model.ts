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
  /**
   * Sec-Fetch-Mode and Sec-Fetch-Dest, which browsers send with every request: a page opened by a reader is
   * `navigate` to a `document`; an `<img>`, `<iframe>`, script or fetch of another site's page is not.
   */
  fetchMode: string | null
  fetchDest: string | null
  /** Sec-Fetch-Site and the Referer: whether a frame's request comes from a site the link may be framed by. */
  fetchSite: string | null
  referrer: string | null
  clientIp: string
}
