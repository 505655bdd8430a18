import { DISPLAY_TRICKS } from './text'

const INVISIBLE = new RegExp(`[\\u0000-\\u001F\\u007F]|${DISPLAY_TRICKS.source}`, 'gu')
/** A final extension: a dot and 1–10 letters or digits, at least one a letter (so "v1.2" has none). */
const EXTENSION = /\.(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,10}$/
/** What the quoted ASCII fallback keeps; everything else becomes "_" (see asciiFallback). */
const FALLBACK_UNSAFE = /[^A-Za-z0-9 !#$&()+,.@[\]^_{}~-]/g

/**
 * The name a PDF is saved under: the stored display name, always ending in `.pdf`. The display name is the
 * owner's free text ("Q3 report", "slides.html"), but what is sent is always a PDF, and a name ending in
 * .html, .svg or .exe would make the saved file open as something else. Another final extension is replaced,
 * none gets one appended; trailing dots and spaces go (Windows drops them, which would expose the extension
 * before them); characters that disguise the name (controls, bidi overrides) are removed, for names stored
 * before they were refused.
 */
export function downloadName(stored: string): string {
  const name = stored.replace(INVISIBLE, '').replace(/[.\s]+$/u, '')
  if (/\.pdf$/i.test(name)) return name
  const stem = name.replace(EXTENSION, '')
  return `${stem.trim() === '' ? 'document' : stem}.pdf`
}

/**
 * The `filename="…"` fallback for clients without RFC 6266 `filename*`: ASCII letters with their accents
 * dropped, and nothing a lax header parser could read as the end of the value or a parameter of its own
 * (no quote, backslash, semicolon, `*`, `=`, `'` or `%`).
 */
export function asciiFallback(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').replace(FALLBACK_UNSAFE, '_')
}
