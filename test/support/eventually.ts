/** Retries an assertion until it passes or `timeoutMs` runs out (bun:test has no expect.poll). */
export async function eventually(assertion: () => Promise<void> | void, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await assertion()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await Bun.sleep(25)
    }
  }
}
