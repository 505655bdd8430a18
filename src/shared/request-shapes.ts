/**
 * The limits of a file request's fields and of what a sender gives, for the server and the dashboard alike.
 * Bundled into the browser: constants only. The Request resource's type is that of routes/requests/model.ts.
 */
export const REQUEST_LIMITS = {
  /** Longest title, in code points after NFC. */
  title: 160,
  /** Longest message, in code points after NFC (several lines allowed). */
  message: 4000,
  /** Longest name the page may show as who asks. */
  ownerName: 100,
  /** The most files one request may take in all. */
  maxFiles: 10_000,
  /** The files a request takes when it is created without maxFiles. */
  defaultMaxFiles: 10,
  /** Requests a user may have. */
  perUser: 200,
  /** Longest name a sender gives. */
  senderName: 100,
  /** Longest note a sender adds (several lines allowed). */
  senderNote: 1000,
} as const
