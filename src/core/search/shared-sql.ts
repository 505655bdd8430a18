import { type SQL, sql } from 'drizzle-orm'

/**
 * The condition every matching page passes, in both dialects (the query names `files f`, `search_files s`,
 * `search_pages p`): the file is the owner's (a team's token names the team as owner: core/accounts), and its
 * text was read from the PDF it has now. A replaced file's old text never matches, even before it is read anew.
 */
export const currentPdfOf = (ownerId: string) => sql`f.owner_id = ${ownerId} AND s.blob_key = f.blob_key AND s.state = 'indexed'`

/** Only these files' pages (a page of hits), or every file. */
export const within = (fileIds: string[] | undefined): SQL[] =>
  fileIds === undefined
    ? []
    : [
        sql`p.file_id IN (${sql.join(
          fileIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ]
