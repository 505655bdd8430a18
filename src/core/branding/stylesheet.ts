import { createHash } from 'node:crypto'
import { contrast, mix } from '../../lib/colour'

/** The page backgrounds the accent is seen on: white, and the viewer's dark mode (the dashboard's is as dark). */
const LIGHT_PAGE = '#ffffff'
const DARK_PAGE = '#1b1c20'
const TEXT_LIGHT = '#ffffff'
const TEXT_DARK = '#111111'

/** WCAG 2's least contrast for text (links are drawn in the accent) and for buttons and focus rings. */
export const TEXT_CONTRAST = 4.5
export const UI_CONTRAST = 3

/** The text colour on a button of `background`: white or near-black, whichever stands out more. */
const textOn = (background: string) => (contrast(background, TEXT_LIGHT) >= contrast(background, TEXT_DARK) ? TEXT_LIGHT : TEXT_DARK)

/**
 * The accent as dark mode shows it: the colour itself when it stands out on the dark page as text must (4.5:1),
 * else lightened (mixed with white, a tenth at a time) until it does. Dark accents chosen for white pages would
 * otherwise vanish there.
 */
export function darkShadeOf(accent: string): string {
  for (let amount = 0; amount <= 1; amount += 0.1) {
    const shade = mix(accent, '#ffffff', amount)
    if (contrast(shade, DARK_PAGE) >= TEXT_CONTRAST) return shade
  }
  return '#ffffff'
}

/** The instance's stylesheet (/branding.css) for an accent, and its version (a hash of its text). */
export type BrandStyle = { css: string; version: string; darkShade: string }

/**
 * The colours an accent sets, as CSS custom properties the viewer's, gate pages' and dashboard's stylesheets
 * already use (--accent, --accent-text, --focus, --chart-bar), for light and dark mode. A stylesheet of its own
 * rather than a `style` attribute or element: the pages' CSP allows styles from our origin only, no inline ones.
 */
export function brandStyleOf(accent: string): BrandStyle {
  const darkShade = darkShadeOf(accent)
  const block = (colour: string) => `--accent: ${colour}; --accent-text: ${textOn(colour)}; --focus: ${colour}; --chart-bar: ${colour};`
  const css = `/* pdfshare: the instance's accent colour (docs/operations.md, Branding). */
:root { ${block(accent)} }
@media (prefers-color-scheme: dark) {
  :root { ${block(darkShade)} }
}
`
  return { css, version: createHash('sha256').update(css).digest('hex').slice(0, 16), darkShade }
}

/** What an admin should know about an accent: where it stands out too little on white pages. */
export function accentWarnings(accent: string): string[] {
  const onWhite = contrast(accent, LIGHT_PAGE)
  const ratio = `${(Math.floor(onWhite * 10) / 10).toFixed(1)}:1`
  if (onWhite < UI_CONTRAST)
    return [
      `The accent ${accent} stands out little on white pages (contrast ${ratio}): buttons, links and focus rings drawn in it are hard to see. At least ${UI_CONTRAST}:1 is advised, ${TEXT_CONTRAST}:1 for links; choose a darker colour.`,
    ]
  if (onWhite < TEXT_CONTRAST)
    return [
      `Links drawn in the accent ${accent} are hard to read on white pages (contrast ${ratio}; ${TEXT_CONTRAST}:1 is advised for text). Buttons and focus rings are fine.`,
    ]
  return []
}
