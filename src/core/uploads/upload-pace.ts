import { uploadTooSlow } from '../../errors'
import { formatSize } from '../../shared/sizes'

/**
 * The first seconds of an upload are never judged by its rate: connection set-up, TCP slow start, a phone
 * waking its radio. A client sending 1 B/s holds its upload slot this long at most (plus one idle timeout).
 */
export const UPLOAD_GRACE_MS = 20_000

export type UploadPace = {
  /** The app's clock (ctx.now), so tests can let time pass without waiting. */
  now: () => number
  /** Average bytes per second since the body started, required once the grace period is over; 0 = none. */
  minBytesPerSecond: number
  /** The whole body must have arrived within this time. */
  timeoutMs: number
}

/**
 * A check to run each time more of an upload's body has arrived, with the bytes received so far: it throws
 * `request_timeout` once the upload has taken longer than `timeoutMs`, or when, after the grace period, its
 * average rate is below `minBytesPerSecond`. Each upload holds a slot, a socket and a temp file; without this, a client
 * trickling a byte a second (never silent long enough for the idle timeout) held them indefinitely.
 *
 * The average since the start, not the current rate, is what counts: a legitimate upload that stalls for a
 * while has banked the time with what it sent before. A 100 MiB upload passes at any rate that finishes it
 * within the timeout (about 29 KiB/s for an hour), far below any real link.
 */
export function uploadPaceCheck(pace: UploadPace): (received: number) => void {
  const started = pace.now()
  return (received) => {
    const elapsed = pace.now() - started
    if (elapsed > pace.timeoutMs) {
      throw uploadTooSlow(`it took longer than the ${Math.round(pace.timeoutMs / 1000)} s an upload may take`)
    }
    if (elapsed > UPLOAD_GRACE_MS && received * 1000 < pace.minBytesPerSecond * elapsed) {
      throw uploadTooSlow(
        `${formatSize(received)} arrived in ${Math.round(elapsed / 1000)} s, below the minimum average of ${formatSize(pace.minBytesPerSecond)}/s`,
      )
    }
  }
}
