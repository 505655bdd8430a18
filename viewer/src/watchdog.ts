import type { HttpRangeTransport } from './range-transport'
import type { Status } from './status'

/** How long without a byte (or, while opening, without anything happening) before the reader is told. */
export const WATCHDOG_MS = 20_000
const CHECK_EVERY_MS = 1_000

export type Watchdog = {
  /** Starts the quiet period again (after a retry or a password, which are progress of their own). */
  restart(): void
}

/**
 * The status must never spin forever. Every second: when a request for the PDF's bytes has been open for
 * WATCHDOG_MS without a byte arriving, `onStalled` (the reader can retry); when the document is still opening
 * and nothing has arrived for that long, with no request open (pdf.js's worker did not load, or is stuck),
 * `onSlow`. Either only replaces the loading or ready state, never another problem; the document may still
 * appear afterwards and then replaces the message.
 */
export function startWatchdog(options: { status: Status; transport: HttpRangeTransport; onStalled(): void; onSlow(): void }): Watchdog {
  const { status, transport } = options
  let quietSince = Date.now()
  setInterval(() => {
    if (status.state === 'error') return
    const now = Date.now()
    if (transport.stalledFor(now) >= WATCHDOG_MS) return options.onStalled()
    if (status.state === 'loading' && now - Math.max(quietSince, transport.lastByteAt) >= WATCHDOG_MS) options.onSlow()
  }, CHECK_EVERY_MS)
  return { restart: () => (quietSince = Date.now()) }
}
