import { type SQL, sql } from 'drizzle-orm'
import type { PageDialect } from './page-dialect'
import { hasCjk, likePattern, type Term } from './query'
import { currentPdfOf, within as onlyFiles } from './shared-sql'

/** A term in FTS5's syntax: its words as one quoted phrase (they are letters and digits only), `*` for a prefix. */
const ftsTerm = (term: Term) => `"${term.words.join(' ').replaceAll('"', '""')}"${term.prefix ? ' *' : ''}`

/** The pages whose words match all terms (AND), or any of them (OR): the rowids of search_words. */
const wordsMatching = (terms: Term[], join: 'AND' | 'OR') =>
  sql`SELECT rowid FROM search_words WHERE search_words MATCH ${terms.map(ftsTerm).join(` ${join} `)}`
/** The CJK pages that hold the term as a substring (the trigram index serves a LIKE of three characters or more). */
const gramsLike = (term: Term) => sql`SELECT rowid FROM search_grams WHERE body LIKE ${likePattern(term)}`

/**
 * The embedded database's index: FTS5's search_words (`unicode61 remove_diacritics 2`: "creme" finds "Crème")
 * holds every page with text, search_grams (`trigram`) the pages with CJK text too, both keyed by search_pages.id.
 */
export const sqlitePages: PageDialect = {
  replacePages(file, texts) {
    const statements: SQL[] = [sql`DELETE FROM search_pages WHERE file_id = ${file.id}`]
    for (const [index, text] of texts.entries()) {
      if (text.trim() === '') continue
      const page = index + 1
      const row = sql`SELECT id FROM search_pages WHERE file_id = ${file.id} AND page = ${page}`
      statements.push(
        sql`INSERT INTO search_pages (file_id, page) SELECT id, ${page} FROM files WHERE id = ${file.id}`,
        sql`INSERT INTO search_words (rowid, body) SELECT id, ${text} FROM (${row})`,
      )
      if (hasCjk(text)) statements.push(sql`INSERT INTO search_grams (rowid, body) SELECT id, ${text} FROM (${row})`)
    }
    return statements
  },

  matchingPages(ownerId, { terms }, within) {
    const words = terms.filter((term) => !term.exclude && !term.cjk)
    const conditions: SQL[] = [currentPdfOf(ownerId), ...onlyFiles(within)]
    for (const term of terms.filter((term) => term.cjk))
      conditions.push(term.exclude ? sql`p.id NOT IN (${gramsLike(term)})` : sql`p.id IN (${gramsLike(term)})`)
    const excluded = terms.filter((term) => term.exclude && !term.cjk)
    if (excluded.length > 0) conditions.push(sql`p.id NOT IN (${wordsMatching(excluded, 'OR')})`)
    // bm25 is computed where the MATCH is (the LIMIT keeps SQLite from flattening the subquery into the join,
    // where bm25 cannot run): ranked by the words; a CJK-only search ranks every page alike.
    const ranked =
      words.length > 0
        ? sql`JOIN (SELECT rowid AS id, bm25(search_words) AS rank FROM search_words WHERE search_words MATCH ${words.map(ftsTerm).join(' AND ')} LIMIT -1) w ON w.id = p.id`
        : sql`JOIN (SELECT 0.0 AS rank) w`
    return sql`SELECT p.file_id AS file_id, p.page AS page, p.id AS id, w.rank AS rank
      FROM search_pages p ${ranked} JOIN files f ON f.id = p.file_id JOIN search_files s ON s.file_id = f.id
      WHERE ${sql.join(conditions, sql` AND `)}`
  },

  bodies: (ids) =>
    sql`SELECT rowid AS id, body FROM search_words WHERE rowid IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
}
