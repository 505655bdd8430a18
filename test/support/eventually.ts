/**
 * Retries an assertion until it passes or `timeoutMs` runs out (bun:test has no expect.poll). The default is a
 * bound for something that never happens, not a measure of speed: on a busy machine background work (renders,
 * outboxes, a restarted server) can take far longer than on a quiet one.
 */
export async function eventually(assertion: () => Promise<void> | void, timeoutMs = 60_000): Promise<void> {
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
