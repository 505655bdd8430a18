import { existsSync } from 'node:fs'

/**
 * Tests that need a Debian package the rest of the suite does not (qemu-user-static, podman, prometheus) skip
 * on a machine without it, saying which package and why; the README's test command installs them all. Under
 * CI they never skip: a missing package there is a broken install step and the test fails on it. CI services
 * set CI, most to `true` but some to `1` or their own name; only unset, empty, `false` or `0` is not CI.
 */
export function skipWithout(paths: string[], install: string): boolean {
  const missing = paths.filter((path) => !existsSync(path))
  if (missing.length === 0) return false
  if (underCi(process.env.CI)) return false
  console.warn(`skipped: ${missing.join(', ')} not found (${install}; the README's test command installs it)`)
  return true
}

/** Whether the CI variable says the tests run under CI. */
export function underCi(value: string | undefined): boolean {
  return value !== undefined && !['', 'false', '0'].includes(value.trim().toLowerCase())
}
