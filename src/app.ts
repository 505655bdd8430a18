import { Elysia } from 'elysia'
import type { AppContext } from './context'
import { requestLifecycle } from './http/lifecycle'
import { authPlugin, meRoutes } from './modules/auth'
import { filesRoutes } from './modules/files'
import { systemRoutes } from './modules/system'

/**
 * The whole HTTP application, built from an already-opened context. It never listens by itself:
 * `pdfshare serve` hands `app.fetch` to Bun.serve, tests call `app.handle(new Request(…))`.
 */
export function createApp(ctx: AppContext) {
  const auth = authPlugin(ctx)
  return new Elysia()
    .use(requestLifecycle(ctx.log))
    .use(systemRoutes())
    .use(meRoutes(ctx, auth))
    .use(filesRoutes(ctx, auth))
}

export type App = ReturnType<typeof createApp>
