import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bearer } from '../support/bearer'
import { run, startServer } from '../../scripts/support/process'
import { shareUrlOn } from '../support/share-paths'
import { uploadPdfTo } from '../support/uploads'
import { browserNumber } from '../support/user-agents'

test('a clean shutdown (SIGTERM) in the middle of visits loses no counted view', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pdfshare-shutdown-'))
  try {
    await run(['user', 'add', 'alice', '--data', dataDir])
    const token = (await run(['token', 'issue', 'alice', '--data', dataDir])).stdout.trim()
    // All visitors come from 127.0.0.1: the bound on views per address is lifted for them.
    const env = { PDFSHARE_RATE_LIMIT_SHARE: '0', PDFSHARE_MAX_VIEWS_PER_ADDRESS: '0' }
    let server = await startServer(['--data', dataDir], { env })
    const uploaded = await uploadPdfTo(server.url, token)
    const page = shareUrlOn(server.url, uploaded)

    // 200 distinct visitors arrive; the server is told to stop while they are in flight.
    const visits = Array.from({ length: 200 }, (_, i) =>
      fetch(page, { headers: { 'user-agent': browserNumber(i) } }).then(
        (r) => r.status,
        () => 0,
      ),
    )
    await Bun.sleep(15)
    const stopped = server.stop()
    const statuses = await Promise.all(visits)
    expect(await stopped).toBe(0)
    const served = statuses.filter((status) => status === 200).length
    expect(served).toBeGreaterThan(0)

    server = await startServer(['--data', dataDir], { env })
    try {
      const file = await (await fetch(`${server.url}/api/files/${uploaded.id}`, { headers: bearer(token) })).json()
      // Every page that was served was counted, and nothing that was not served.
      expect(file.data.views).toBe(served)
    } finally {
      await server.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
})
