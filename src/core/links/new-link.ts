import { type SQL, sql } from 'drizzle-orm'
import type { Tables } from '../../db/database'
import type { LinkRow } from '../../db/tables'
import { randomId } from '../../lib/ids'
import type { AppContext } from '../context'
import { hashPassword } from '../passwords/argon2'
import type { LinkInput } from './link-input'
import { checkPasswordOfNewLink, checkReaderRules, expiryOfNewLink } from './link-policy'

/** A new link's row without the file or room it belongs to and its insertion order. */
export type NewLink = Omit<LinkRow, 'seq' | 'fileId' | 'roomId'>

/** What a link shares: a file, or a room (docs/rooms.md). */
export type LinkTarget = { fileId: string } | { roomId: string }

/**
 * The row of a new link (POST /api/files/:id/links, or the default link of an upload) from checked input:
 * the instance policy applied (default and maximum expiry, required password), the password hashed, a fresh
 * id and slug. Throws the 400 the policy or an expiry in the past calls for. Hashing takes a slot of the
 * argon2 queue, so callers check what they can (the file exists) first.
 */
export async function prepareNewLink(ctx: AppContext, input: LinkInput, options: { isDefault: boolean }): Promise<NewLink> {
  const now = ctx.now()
  const expiresAt = expiryOfNewLink(ctx.config, now, input.expiresAt)
  checkPasswordOfNewLink(ctx.config, input)
  const readers = { access: input.access ?? 'open', allowReaders: input.allowReaders ?? '', denyReaders: input.denyReaders ?? '' }
  checkReaderRules(ctx.config, readers)
  return {
    id: randomId(),
    slug: randomId(),
    isDefault: options.isDefault,
    label: input.label ?? '',
    allowDownload: input.allowDownload ?? true,
    searchEngineVisible: input.searchEngineVisible ?? false,
    expiresAt,
    maxViews: input.maxViews ?? null,
    passwordHash: input.password ? await hashPassword(input.password) : null,
    disabled: input.disabled ?? false,
    ...readers,
    agreement: input.agreement ?? null,
    agreementVersion: input.agreement ? 1 : 0,
    notify: input.notify ?? 'on',
    embedOrigins: input.embedOrigins ?? '',
    watermark: input.watermark ?? null,
    language: input.language ?? null,
    views: 0,
    createdAt: now,
    updatedAt: now,
  }
}

/**
 * The INSERT of a prepared link for a file or a room, only where `condition` holds (the file or room went in; the
 * owner owns it and has room for another link): the one statement the upload, a new room and POST …/links write
 * a link with.
 */
export function insertLinkWhere(tables: Pick<Tables, 'links'>, link: NewLink, target: LinkTarget, condition: SQL): SQL {
  const fileId = 'fileId' in target ? target.fileId : null
  const roomId = 'roomId' in target ? target.roomId : null
  return sql`INSERT INTO ${tables.links} (id, file_id, room_id, slug, is_default, label, allow_download, search_engine_visible, expires_at, max_views,
                          password_hash, disabled, access, allow_readers, deny_readers, agreement, agreement_version,
                          notify, embed_origins, watermark, language, views, created_at, updated_at)
    SELECT ${link.id}, ${fileId}, ${roomId}, ${link.slug}, ${link.isDefault}, ${link.label}, ${link.allowDownload},
           ${link.searchEngineVisible}, ${link.expiresAt}, ${link.maxViews}, ${link.passwordHash}, ${link.disabled},
           ${link.access}, ${link.allowReaders}, ${link.denyReaders}, ${link.agreement}, ${link.agreementVersion},
           ${link.notify}, ${link.embedOrigins}, ${link.watermark}, ${link.language}, 0, ${link.createdAt}, ${link.updatedAt}
    WHERE ${condition}`
}
