/**
 * The files' limits and list orders, for the server and the dashboard alike. This folder is bundled into the
 * browser: constants, functions and the types derived from them, no imports from outside it, no runtime APIs
 * of Bun or Node. The server's t-schemas (routes/files/model.ts) are built from these constants, and the
 * API's types are that model's: test/types/shared-shapes.test.ts fails if a hand-written one comes back here.
 */

/** The longest filename, title and description, counted by `textLength`. */
export const TEXT_LIMITS = { filename: 255, title: 160, desc: 500 } as const

/**
 * How the text limits count: Unicode code points after NFC, so "é" is 1 however it was typed, and "😀" is 1.
 * The dashboard's counters and the server's text rule (lib/text.ts) both count with this.
 */
export function textLength(text: string): number {
  let count = 0
  for (const _ of text.normalize('NFC')) count++
  return count
}

/** How a list of files can be ordered (`?order=`); the first is the default. */
export const LIST_ORDERS = ['newest', 'oldest', 'name', 'views', 'size'] as const
export type ListOrder = (typeof LIST_ORDERS)[number]
