import { Elysia } from 'elysia'
import type { AppContext } from '../../core/context'
import { searchFiles } from '../../core/search/search-files'
import type { AuthGuard } from '../../http/auth-guard'
import { authFailures, FailureSchema } from '../../http/schemas'
import { SearchEnvelope, SearchQuery } from './model'

/** GET /api/search: the text of the caller's PDFs (docs/search.md). Scope files:read, the files' owner rules. */
export function searchRoutes(ctx: AppContext, auth: AuthGuard) {
  return new Elysia({ name: 'search' }).use(auth).get(
    '/api/search',
    async ({ caller, query }) => {
      const page = await searchFiles(ctx, { ownerId: caller.ownerId, q: query.q, limit: query.limit ?? 20, cursor: query.cursor })
      return {
        success: true as const,
        data: page.hits.map((hit) => ({ ...hit, indexed: true as const })),
        nextCursor: page.nextCursor,
        notIndexed: page.notIndexed.map((file) => ({ ...file, indexed: false as const })),
      }
    },
    {
      auth: 'files:read',
      query: SearchQuery,
      response: { 200: SearchEnvelope, 400: FailureSchema, ...authFailures },
      detail: {
        summary: "Search the text of your PDFs' pages: ranked files with their matching pages and snippets",
        tags: ['files'],
      },
    },
  )
}
