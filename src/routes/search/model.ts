import { t } from 'elysia'

export const SearchQuery = t.Object({
  q: t.String({
    minLength: 1,
    maxLength: 200,
    description: 'Words to find in your PDFs\' text: "a phrase" in quotes, contr* for a prefix, -word to leave pages with it out',
  }),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 20 })),
  cursor: t.Optional(t.String({ maxLength: 200, description: 'nextCursor of the previous page' })),
})

const Snippet = t.Object({
  page: t.Integer({ description: 'The page the snippet is from (1-based)' }),
  text: t.String({ description: "About 200 characters of the page's text around its first match" }),
  matches: t.Array(t.Array(t.Integer(), { minItems: 2, maxItems: 2 }), {
    description: 'Where matched words are in text: [start, length] in UTF-16 code units, in order',
  }),
})

export const SearchHitSchema = t.Object({
  file: t.Object({ id: t.String(), filename: t.String(), title: t.String() }),
  indexed: t.Literal(true),
  pages: t.Array(t.Integer(), { description: 'Every matching page, in page order (at most 500)' }),
  snippets: t.Array(Snippet, { description: 'Snippets of the best matching pages (at most 3), best first' }),
})

const NotIndexedSchema = t.Object({
  id: t.String(),
  filename: t.String(),
  title: t.String(),
  indexed: t.Literal(false),
  state: t.Union([t.Literal('pending'), t.Literal('failed')], {
    description: 'pending: its text is still to be read; failed: its PDF could not be read (see error)',
  }),
  error: t.Union([t.String(), t.Null()]),
})

export const SearchEnvelope = t.Object({
  success: t.Literal(true),
  data: t.Array(SearchHitSchema, { description: 'Files whose text matches, best first' }),
  nextCursor: t.Union([t.String(), t.Null()], { description: 'Pass as ?cursor= for the next page; null on the last page' }),
  notIndexed: t.Array(NotIndexedSchema, {
    description:
      "On the first page: your newest files (at most 20) whose text cannot be searched yet, so a search's absence of hits is never mistaken for an answer",
  }),
})
