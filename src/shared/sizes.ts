/**
 * Byte sizes as people type and read them, for the server (settings, messages) and the dashboard alike.
 * Units are binary (1 MB = 1,048,576 bytes), so the "100 MB" cap and 104,857,600 bytes are the same number
 * everywhere, and the dashboard shows a size as the API's messages write it.
 */
const UNITS: Record<string, number> = {
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
}

/** "5GB", "512 MiB", "1048576" → bytes; `undefined` when it is not a size. */
export function parseSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text)
  if (!match) return undefined
  const unit = UNITS[(match[2] ?? '').toLowerCase() || 'b']
  if (unit === undefined) return undefined
  const bytes = Math.round(Number(match[1]) * unit)
  return Number.isSafeInteger(bytes) ? bytes : undefined
}

/** 5368709120 → "5 GB", 5261334937 → "4.9 GB". */
export function formatSize(bytes: number): string {
  const steps: [string, number][] = [
    ['TB', 1024 ** 4],
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ]
  for (const [unit, size] of steps) {
    if (bytes >= size) {
      const value = Math.floor((bytes / size) * 10) / 10
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`
    }
  }
  return `${bytes} bytes`
}
