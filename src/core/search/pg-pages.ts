import { type SQL, sql } from 'drizzle-orm'
import type { PageDialect } from './page-dialect'
import { hasCjk, likePattern, type Term } from './query'
import { currentPdfOf, within as onlyFiles } from './shared-sql'

/**
 * A term as a tsquery, built by PostgreSQL's own functions from the term's words (never parsed from the user's
 * text): a phrase by phraseto_tsquery, a prefix as one quoted lexeme with `:*`; folded as the pages were.
 */
const tsTerm = (term: Term): SQL =>
  term.prefix && term.words.length === 1
    ? sql`to_tsquery('simple', quote_literal(search_fold(${term.words[0]!})) || ':*')`
    : sql`phraseto_tsquery('simple', search_fold(${term.words.join(' ')}))`
const tsAll = (terms: Term[], join: '&&' | '||') => sql`(${sql.join(terms.map(tsTerm), sql.raw(` ${join} `))})`

/**
 * PostgreSQL's index: search_pages holds each page's text and its tsvector ('simple', folded by search_fold:
 * unaccent where the extension is there), GIN-indexed; CJK pages are marked, and a pg_trgm index serves their
 * substring search where pg_trgm is there.
 */
export const pgPages: PageDialect = {
  replacePages(file, texts) {
    const statements: SQL[] = [sql`DELETE FROM search_pages WHERE file_id = ${file.id}`]
    for (const [index, text] of texts.entries()) {
      if (text.trim() === '') continue
      statements.push(sql`INSERT INTO search_pages (file_id, page, body, words, cjk)
        SELECT id, ${index + 1}, ${text}, to_tsvector('simple', search_fold(${text})), ${hasCjk(text)} FROM files WHERE id = ${file.id}`)
    }
    return statements
  },

  matchingPages(ownerId, { terms }, within) {
    const words = terms.filter((term) => !term.exclude && !term.cjk)
    const excluded = terms.filter((term) => term.exclude && !term.cjk)
    const conditions: SQL[] = [currentPdfOf(ownerId), ...onlyFiles(within)]
    if (words.length > 0) conditions.push(sql`p.words @@ ${tsAll(words, '&&')}`)
    if (excluded.length > 0) conditions.push(sql`NOT (p.words @@ ${tsAll(excluded, '||')})`)
    for (const term of terms.filter((term) => term.cjk)) {
      const has = sql`(p.cjk AND p.body ILIKE ${likePattern(term)})`
      conditions.push(term.exclude ? sql`NOT ${has}` : has)
    }
    const rank = words.length > 0 ? sql`-ts_rank_cd(p.words, ${tsAll(words, '&&')})` : sql`0.0`
    return sql`SELECT p.file_id AS file_id, p.page AS page, p.id::int8 AS id, (${rank})::float8 AS rank
      FROM search_pages p JOIN files f ON f.id = p.file_id JOIN search_files s ON s.file_id = f.id
      WHERE ${sql.join(conditions, sql` AND `)}`
  },

  bodies: (ids) =>
    sql`SELECT id::int8 AS id, body FROM search_pages WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
}
