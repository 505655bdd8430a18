import { existsSync } from 'node:fs'

/**
 * Tests that need a Debian package the rest of the suite does not (qemu-user-static, podman, prometheus) skip
 * on a machine without it, saying which package and why; the README's test command installs them all. Under
 * CI (CI=true) they never skip: a missing package there is a broken install step and the test fails on it.
 */
export function skipWithout(paths: string[], install: string): boolean {
  const missing = paths.filter((path) => !existsSync(path))
  if (missing.length === 0) return false
  if (process.env.CI === 'true') return false
  console.warn(`skipped: ${missing.join(', ')} not found (${install}; the README's test command installs it)`)
  return true
}
