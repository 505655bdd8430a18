import type { LinkRow } from '../../db/schema'
import { randomId } from '../../lib/ids'
import type { AppContext } from '../context'
import { hashPassword } from '../passwords/argon2'
import type { LinkInput } from './link-input'
import { checkPasswordOfNewLink, expiryOfNewLink } from './link-policy'

/** A new link's row without the file it belongs to and its insertion order. */
export type NewLink = Omit<LinkRow, 'seq' | 'fileId'>

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
    views: 0,
    createdAt: now,
    updatedAt: now,
  }
}
