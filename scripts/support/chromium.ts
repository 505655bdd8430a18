import { type Browser, chromium } from 'playwright-core'

/** Debian's Chromium (apt-get install -y chromium); the browser tests, benchmarks and corpus runs never download one. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * Flags that work as root on these machines: no sandbox (root), no GPU, and none of Chromium's own network
 * traffic (updates, sync, QUIC), which a closed network refuses and which would only add noise to timings.
 */
const HEADLESS_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export function launchHeadlessChromium(executablePath = DEBIAN_CHROMIUM): Promise<Browser> {
  return chromium.launch({ executablePath, args: HEADLESS_FLAGS })
}
