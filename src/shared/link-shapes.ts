/**
 * The limits of a share link's fields, for the server and the dashboard alike. Bundled into the browser:
 * constants only. The Link resource's type is that of routes/links/model.ts.
 */
export const LINK_LIMITS = {
  /** Longest label, in code points after NFC (counted like the file's texts, `textLength`). */
  label: 100,
  /** A link password's length in code points. */
  passwordMin: 4,
  passwordMax: 200,
  /** The largest view limit. */
  maxViews: 1_000_000_000,
  /** Links a file may have, its default link included. */
  perFile: 100,
  /** The longest reader address or @domain (RFC 5321's path limit). */
  address: 254,
  /** Entries an allow or deny list may hold. */
  listEntries: 500,
  /** The longest agreement text, in code points after NFC. */
  agreement: 20_000,
  /** Origins one link may be framed by (its page's `frame-ancestors` lists them all). */
  embedOrigins: 10,
  /** The longest origin as sent (`https://` and a host name of at most 253 characters, a port). */
  origin: 300,
  /** The longest watermark template, in code points after NFC (its placeholders filled in may run longer). */
  watermark: 100,
} as const
