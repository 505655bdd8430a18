import { greaterOf } from '../../db/database'
import { and, eq, sql } from 'drizzle-orm'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import type { AppContext } from '../context'
import type { LinkInput } from './link-input'
import { insertAgreementText } from './agreements'
import { checkExpiryChange, checkPasswordChange, checkReaderRules } from './link-policy'
import { hashPassword } from '../passwords/argon2'
import type { LinkRow } from '../../db/tables'
import { type Asker, getLink, linkNotFound, linkOfAsker } from './owned-links'

/**
 * Changes the fields sent (omitted: unchanged; null clears password, expiresAt, maxViews). A new expiry must
 * lie in the future and within the policy's maximum; under PDFSHARE_LINK_REQUIRE_PASSWORD a password can be
 * changed but not removed. Changing or removing the password ends every unlock a reader holds (the unlock
 * cookie is signed over the hash). The default link's switches are the File's allowDownload and
 * searchEngineVisible. Who may open it (access, allow, deny) is judged on the link as it will be; new agreement
 * words are a new version, kept with the old ones.
 */
export async function updateLink(ctx: AppContext, input: { asker: Asker; linkId: string; link: LinkInput }): Promise<LinkRow> {
  const { links } = ctx.db.tables
  const current = await getLink(ctx, input) // 404 before a password is hashed
  const { password, ...fields } = input.link
  const now = ctx.now()
  if (fields.expiresAt !== undefined) checkExpiryChange(ctx.config, now, fields.expiresAt)
  checkPasswordChange(ctx.config, { password })
  checkReaderRules(ctx.config, { ...current, ...fields })
  const changes: SQLiteUpdateSetSource<typeof links> = {
    ...fields,
    // Each change moves updatedAt forward, even two within the same millisecond.
    updatedAt: greaterOf(now, sql`${links.updatedAt} + 1`),
  }
  // New words are a new version: acceptances of the old one no longer open the link.
  if (fields.agreement && fields.agreement !== current.agreement) changes.agreementVersion = sql`${links.agreementVersion} + 1`
  if (password !== undefined) changes.passwordHash = password === null ? null : await hashPassword(password)
  const [[row]] = await ctx.db.orm.batch([
    ctx.db.orm
      .update(links)
      .set(changes)
      .where(and(eq(links.id, input.linkId), linkOfAsker(ctx.db.tables, input.asker)))
      .returning(),
    ctx.db.orm.run(insertAgreementText(ctx.db.tables, { id: input.linkId }, now)),
  ])
  if (!row) throw linkNotFound() // its file was deleted meanwhile
  return row
}

/** Turns a link off or on again (the CLI's link disable / enable). */
export function setLinkDisabled(ctx: AppContext, input: { asker: Asker; linkId: string; disabled: boolean }): Promise<LinkRow> {
  return updateLink(ctx, { asker: input.asker, linkId: input.linkId, link: { disabled: input.disabled } })
}
