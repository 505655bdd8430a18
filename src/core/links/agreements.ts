import { type SQL, sql } from 'drizzle-orm'
import type { Tables } from '../../db/database'

/**
 * Keeps the link's current agreement text under its version (agreement_texts), so that every acceptance can
 * always show the words that were accepted, after the owner edits them. Runs in the batch that writes the link;
 * writes nothing when the link has no agreement (or did not go in), or that version is kept already.
 */
export function insertAgreementText(tables: Pick<Tables, 'links' | 'agreementTexts'>, link: { id: string }, now: number): SQL {
  return sql`INSERT INTO ${tables.agreementTexts} (link_id, version, text, created_at)
    SELECT id, agreement_version, agreement, ${now} FROM ${tables.links} WHERE id = ${link.id} AND agreement IS NOT NULL
    ON CONFLICT DO NOTHING`
}
