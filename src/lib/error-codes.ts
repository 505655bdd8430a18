/** The `code`s along an error's `cause` chain (drizzle wraps driver errors in its own). */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = []
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') codes.push(code)
  }
  return codes
}
