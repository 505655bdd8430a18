/**
 * Colours as `#rrggbb` and the WCAG 2 arithmetic on them: relative luminance, contrast ratio, mixing. For the
 * branding's accent colour (core/branding): which text goes on it, and whether it stands out on a page.
 */
export type Rgb = [number, number, number]

const HEX = /^#([0-9a-f]{6})$/i

/** `#RRGGBB` in any case, trimmed, as lower-case `#rrggbb`; undefined for anything else (no names, no #rgb). */
export function hexColourOf(text: string): string | undefined {
  const trimmed = text.trim()
  return HEX.test(trimmed) ? trimmed.toLowerCase() : undefined
}

export function rgbOf(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16)
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
}

export function hexOf(rgb: Rgb): string {
  return `#${rgb
    .map((channel) =>
      Math.round(Math.min(255, Math.max(0, channel)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

/** WCAG 2 relative luminance, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((channel) => {
    const c = channel / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as Rgb
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2 contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** `a` moved `amount` (0 to 1) of the way towards `b`. */
export function mix(a: string, b: string, amount: number): string {
  const from = rgbOf(a)
  const to = rgbOf(b)
  return hexOf(from.map((channel, i) => channel + (to[i]! - channel) * amount) as Rgb)
}
