import { expect } from 'bun:test'
import { makePdf } from '../../scripts/support/pdf'
import { run, startServer } from '../../scripts/support/process'
import { bearer } from './bearer'
import { form } from './harness'
import { uploadPdfTo } from './uploads'

/**
 * A real install in `dataDir`, made as an operator would: user alice and a token by the CLI, then `count`
 * PDFs (about `size` bytes each) uploaded through a server process, the first one replaced `replacements`
 * times. `env` carries the install's settings (e.g. S3 storage). Returns alice's token.
 */
export async function installWithFiles(
  dataDir: string,
  { count, replacements = 0, size = 0, env = {} }: { count: number; replacements?: number; size?: number; env?: Record<string, string> },
): Promise<string> {
  expect((await run(['user', 'add', 'alice', '--data', dataDir], { env })).code).toBe(0)
  const token = (await run(['token', 'issue', 'alice', '--data', dataDir], { env })).stdout.trim()
  const server = await startServer(['--data', dataDir], { env })
  try {
    const files: { id: string }[] = []
    for (let i = 0; i < count; i++)
      files.push(await uploadPdfTo(server.url, token, makePdf({ text: () => `file ${i}`, paddingBytes: size + i })))
    for (let i = 0; i < replacements; i++) {
      const response = await fetch(`${server.url}/api/files/${files[0]!.id}`, {
        method: 'PUT',
        headers: bearer(token),
        body: form({ bytes: makePdf({ text: () => `replacement ${i}` }) }),
      })
      expect(response.status).toBe(200)
    }
  } finally {
    await server.stop()
  }
  return token
}

/** Checks that the server at `url` serves every recorded PDF (current ones and kept versions) byte for byte. */
export async function expectEveryPdfServed(
  url: string,
  token: string,
  rows: { fileId: string; versionId: string | null; sha256: string }[],
): Promise<void> {
  for (const row of rows) {
    const path = row.versionId === null ? `/api/files/${row.fileId}/content` : `/api/files/${row.fileId}/versions/${row.versionId}/content`
    const response = await fetch(`${url}${path}`, { headers: bearer(token) })
    expect(response.status).toBe(200)
    expect(new Bun.CryptoHasher('sha256').update(await response.arrayBuffer()).digest('hex')).toBe(row.sha256)
  }
}
