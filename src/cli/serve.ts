import { createApp } from '../app'
import { sweepTemporaryFiles } from '../data-dir'
import { listUsers } from '../modules/auth/users'
import { sweepUnreferencedBlobs } from '../modules/files/service/sweep-blobs'
import type { OpenedContext } from '../open-context'
import { VERSION } from '../version'
import { allowOnly, type ParsedArgs } from './args'
import { commandHint, type CliIo } from './io'
import { acquireServerLock } from './server-lock'

/** Bun must never buffer or cut a body by itself: uploads are streamed and capped by our own code, with our envelope. */
const UNLIMITED_BODY = Number.MAX_SAFE_INTEGER

/** `pdfshare serve`: sweep leftovers, listen, and stop cleanly on SIGINT/SIGTERM. Resolves when stopped. */
export async function serveCommand(ctx: OpenedContext, args: ParsedArgs, io: CliIo): Promise<void> {
  allowOnly(args, 'serve', ['port', 'host', 'public-url'])
  const { config } = ctx
  const releaseLock = await acquireServerLock(config.dataDir)
  const leftovers = await sweepTemporaryFiles(ctx.layout)
  const orphans = await sweepUnreferencedBlobs(ctx)
  if (leftovers + orphans > 0) io.err(`cleaned up ${leftovers} interrupted upload(s) and ${orphans} unreferenced blob(s)`)

  const app = createApp(ctx).listen({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: UNLIMITED_BODY,
    idleTimeout: config.idleTimeout,
  })
  const port = app.server?.port ?? config.port
  io.err(`pdfshare ${VERSION} listening on http://${config.host}:${port} (share links: ${config.publicUrl}, data: ${config.dataDir})`)
  if ((await listUsers(ctx)).length === 0) {
    io.err(
      [
        'No users yet. Create one and get an API token:',
        `  ${commandHint(config.dataDir, 'user add alice')}`,
        `  TOKEN=$(${commandHint(config.dataDir, 'token issue alice')})`,
        `  curl -H "Authorization: Bearer $TOKEN" -F file=@report.pdf ${config.publicUrl}/api/files/upload`,
      ].join('\n'),
    )
  }

  await new Promise<void>((resolve) => {
    const stop = async (signal: string) => {
      io.err(`${signal}: finishing in-flight requests and stopping`)
      await app.stop() // waits for in-flight requests
      ctx.close()
      await releaseLock()
      resolve()
    }
    process.once('SIGINT', () => void stop('SIGINT'))
    process.once('SIGTERM', () => void stop('SIGTERM'))
  })
}
