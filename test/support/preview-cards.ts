import sharp from 'sharp'
import type { TestServer } from './harness'
import { SLACKBOT } from './user-agents'

/** A link card as an unfurler asks for it, from the in-process app. */
export const previewOf = (server: TestServer, path: string) =>
  server.app.handle(new Request(`http://localhost${path}/preview.png`, { headers: { 'user-agent': SLACKBOT } }))

/** Whether a card answer is the placeholder (its ETag ends in -0). */
export const isPlaceholder = (response: Response) => response.headers.get('etag')!.endsWith('-0"')

/** How dark the darkest pixel of a PNG is (0 black … 255 white): a card with any text on it is well below 128. */
export async function darkest(png: ArrayBuffer): Promise<number> {
  const { channels } = await sharp(Buffer.from(png)).stats()
  return Math.min(...channels.slice(0, 3).map((c) => c.min))
}

/**
 * The time a test may take that waits for renders: renderers work at a lower CPU priority than anything else,
 * so on a busy machine a second of CPU time can take a minute or more.
 */
export const STARVED_MS = 180_000
