import type { Sharp } from './render-first-page'
import { WATERMARK_STYLE } from './watermark-style'

/**
 * The renderer's `watermark` job: the page image at `imagePath` (a cached WebP) with the overlay at `overlayPath`
 * (the ink's strength at each pixel, drawn for a page that size: watermark-jobs.ts) laid over it in the
 * watermark's grey, as a WebP. Runs in the renderer process, under its time and memory caps: a loop over every
 * pixel, which for the largest page image (2400 × 9600) held the server's event loop for a good part of a second.
 */
export async function layWatermark(sharp: Sharp, imagePath: string, overlayPath: string): Promise<{ bytes: Buffer; pages: number }> {
  const page = await sharp(imagePath).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const { width, height } = page.info
  const ink = await sharp(overlayPath).extractChannel(0).raw().toBuffer()
  if (ink.length !== width * height) throw new Error(`the watermark overlay is not drawn for a ${width} × ${height} page`)
  layInk(page.data, ink, WATERMARK_STYLE.grey)
  const bytes = await sharp(page.data, { raw: page.info }).webp({ quality: 82, effort: 0 }).toBuffer()
  return { bytes, pages: 1 }
}

/**
 * Lays `grey` over an RGB image with the strength `ink` gives each pixel (0–255), in place. By hand: sharp's
 * composite of an RGBA overlay took longer than decoding and encoding the page together (BENCHMARKS.md).
 */
function layInk(rgb: Buffer, ink: Buffer, grey: readonly [number, number, number]): void {
  for (let pixel = 0, at = 0; pixel < ink.length; pixel++, at += 3) {
    const strength = ink[pixel]!
    if (strength === 0) continue
    for (let channel = 0; channel < 3; channel++) {
      const under = rgb[at + channel]!
      rgb[at + channel] = under + Math.round(((grey[channel]! - under) * strength) / 255)
    }
  }
}
