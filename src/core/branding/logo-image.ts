import { createHash } from 'node:crypto'
import { DomainError, logoTooLarge, notALogo, SVG_REFUSAL } from '../../errors'
import { type ImageType, imageTypeOf } from '../../lib/image-type'
import { BRAND_LIMITS } from '../../shared/branding-shapes'

/** A logo as pdfshare keeps and serves it: a PNG, its address hash and its size. */
export type PreparedLogo = { png: Buffer; hash: string; width: number; height: number }

const FORMATS: Record<ImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' }

/**
 * Checks a logo and makes the PNG that is kept and served instead of it: a PNG, JPEG or WebP by its first bytes
 * (never by a name or a claimed type), at most 1 MB, at most 40 megapixels (refused before it is decoded: a
 * small file can unpack into gigabytes), decoded by sharp, turned upright, scaled down (never up) to fit
 * 720×144 and written anew as a PNG. What is served is then always a plain picture made here: no metadata (a
 * camera's location, an editor's comments), no second image, no bytes a browser could take for something else.
 *
 * SVG is refused: it is a document, not a picture — it can carry scripts, links to other sites and fonts, and
 * making it safe means a full sanitiser or a rasteriser for a format that keeps growing. A PNG export of it is
 * what gets shown anyway.
 *
 * sharp runs in the server process here (the previews' decoding runs in killable renderer processes): only an
 * admin sends a logo, within these bounds, and each is decoded once.
 */
export async function prepareLogo(bytes: Uint8Array): Promise<PreparedLogo> {
  if (bytes.byteLength > BRAND_LIMITS.logoBytes) throw logoTooLarge(BRAND_LIMITS.logoBytes)
  const type = imageTypeOf(bytes)
  if (!type) throw notALogo(looksLikeSvg(bytes) ? SVG_REFUSAL : 'this file is none of them')
  const sharp = (await import('sharp')).default
  try {
    const image = sharp(bytes, { limitInputPixels: BRAND_LIMITS.logoPixels, failOn: 'error', animated: false })
    const metadata = await image.metadata()
    if (metadata.format !== FORMATS[type]) throw notALogo(`this file starts like ${FORMATS[type].toUpperCase()} but is not one`)
    const { data, info } = await image
      .rotate()
      .resize({ width: BRAND_LIMITS.logoWidth, height: BRAND_LIMITS.logoHeight, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9, adaptiveFiltering: true })
      .toBuffer({ resolveWithObject: true })
    return { png: data, hash: createHash('sha256').update(data).digest('hex').slice(0, 16), width: info.width, height: info.height }
  } catch (error) {
    if (error instanceof DomainError) throw error
    const reason = error instanceof Error ? error.message : String(error)
    if (/pixel limit/i.test(reason)) throw notALogo(`this picture has more than ${BRAND_LIMITS.logoPixels / 1_000_000} megapixels`)
    throw notALogo(`this ${FORMATS[type].toUpperCase()} file cannot be read (${reason.split('\n')[0]})`)
  }
}

/** An SVG file or an XML document, to say why it is refused. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const start = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart().toLowerCase()
  return start.startsWith('<?xml') || start.startsWith('<svg') || start.includes('<svg')
}
