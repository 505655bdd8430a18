/** A rendered page: 4 bytes per pixel (PDFium's BGRA), rows top to bottom. */
export type Bitmap = { width: number; height: number; data: Uint8Array }

export type Window = { left: number; top: number; width: number; height: number }

/** A channel below this is ink; paper scans and anti-aliasing stay above it. */
const INK_BELOW = 235
/** Candidate windows start every this many rows. */
const STEP = 4

/**
 * Which full-width slice of the page (as wide as the page, `aspect` times wider than high) becomes the link
 * card. Titles sit at the top of most pages, so the card shows the top — but many pages start lower (a
 * cover whose title is centred, a letter with a wide top margin, a form with a blank header), and a card
 * of white paper tells the reader nothing. So: the topmost slice holding at least half the ink of the
 * inkiest slice, moved down to just above its first inked row. A page without ink keeps its top. Returns
 * null when the whole page is less high than a slice (it is shown whole instead).
 */
export function cardWindow(bitmap: Bitmap, aspect: number): Window | null {
  const { width, height } = bitmap
  const windowHeight = Math.max(1, Math.round(width / aspect))
  if (height <= windowHeight) return null
  const ink = inkPerRow(bitmap)
  // prefix[y] = ink in rows [0, y)
  const prefix = new Float64Array(height + 1)
  for (let y = 0; y < height; y++) prefix[y + 1] = prefix[y]! + ink[y]!
  const lastStart = height - windowHeight
  const inkOf = (top: number) => prefix[top + windowHeight]! - prefix[top]!
  let best = 0
  for (let top = 0; top <= lastStart; top += STEP) best = Math.max(best, inkOf(top))
  best = Math.max(best, inkOf(lastStart))
  if (best === 0) return { left: 0, top: 0, width, height: windowHeight }
  let top = 0
  while (top < lastStart && inkOf(top) < best / 2) top = Math.min(lastStart, top + STEP)
  // A little paper above the first ink, as a margin.
  const margin = Math.round(windowHeight * 0.04)
  let firstInk = top
  while (firstInk < height && ink[firstInk] === 0) firstInk++
  top = Math.min(lastStart, Math.max(top, firstInk - margin))
  return { left: 0, top, width, height: windowHeight }
}

/** How many pixels of each row are ink (every second pixel is looked at: plenty for choosing a slice). */
function inkPerRow({ width, height, data }: Bitmap): Uint32Array {
  const ink = new Uint32Array(height)
  for (let y = 0; y < height; y++) {
    let count = 0
    for (let x = 0, at = y * width * 4; x < width; x += 2, at += 8) {
      // BGRA; a transparent pixel is paper once flattened on white
      if (data[at + 3]! > 16 && (data[at]! < INK_BELOW || data[at + 1]! < INK_BELOW || data[at + 2]! < INK_BELOW)) count++
    }
    ink[y] = count
  }
  return ink
}
