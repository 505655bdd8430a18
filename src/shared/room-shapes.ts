/**
 * The limits of a room's fields (docs/rooms.md), for the server and the dashboard alike. Bundled into the
 * browser: constants only. The Room resource's type is that of routes/rooms/model.ts.
 */
export const ROOM_LIMITS = {
  /** Longest name, in code points after NFC. */
  name: 200,
  /** Longest description, in code points after NFC. */
  description: 5000,
  /** Documents one room may hold. */
  items: 500,
  /** Longest folder path, in code points after NFC (`Financials/2025`). */
  folder: 500,
  /** Longest name of one folder in a path. */
  folderPart: 100,
  /** Deepest folder path, in parts. */
  folderDepth: 10,
} as const
