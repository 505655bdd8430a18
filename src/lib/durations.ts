const SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_536_000 }

/**
 * A token lifetime: "90d", "12h", "30m", "2w", "1y", or "never".
 * Returns seconds, `null` for never, `undefined` when the text is not a lifetime.
 */
export function parseTtl(text: string): number | null | undefined {
  const trimmed = text.trim().toLowerCase()
  if (trimmed === 'never') return null
  const match = /^(\d+)([smhdwy])$/.exec(trimmed)
  if (!match) return undefined
  const seconds = Number(match[1]) * (SECONDS[match[2] ?? ''] ?? 0)
  return seconds > 0 && Number.isSafeInteger(seconds) ? seconds : undefined
}

/** Seconds as the shortest lifetime text that says them exactly: 604800 → "1w", 90 → "90s". */
export function formatTtl(seconds: number): string {
  const units = Object.entries(SECONDS).sort(([, a], [, b]) => b - a)
  for (const [unit, size] of units) if (seconds % size === 0) return `${seconds / size}${unit}`
  return `${seconds}s`
}
