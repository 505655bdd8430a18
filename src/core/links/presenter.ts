import { linkState } from './link-state'
import { shareUrlOf } from './share-url'
import type { LinkRow } from '../../db/tables'
import { embedOriginsOf } from './embed-origins'
import { listEntries } from './readers'
import type { LinkDto } from '../../routes/links/model'

const iso = (ms: number) => new Date(ms).toISOString()

/** The only way a link row leaves the server: the listed fields, never the password hash or the slug apart from its url. */
export function toLinkDto(row: LinkRow, publicUrl: string, now: number): LinkDto {
  return {
    id: row.id,
    fileId: row.fileId,
    roomId: row.roomId,
    url: shareUrlOf(publicUrl, row.slug),
    label: row.label,
    isDefault: row.isDefault,
    allowDownload: row.allowDownload,
    searchEngineVisible: row.searchEngineVisible,
    expiresAt: row.expiresAt === null ? null : iso(row.expiresAt),
    maxViews: row.maxViews,
    hasPassword: row.passwordHash !== null,
    disabled: row.disabled,
    access: row.access as LinkDto['access'],
    allow: listEntries(row.allowReaders),
    deny: listEntries(row.denyReaders),
    agreement: row.agreement,
    agreementVersion: row.agreementVersion,
    notify: row.notify as LinkDto['notify'],
    embedOrigins: embedOriginsOf(row.embedOrigins),
    watermark: row.watermark,
    language: row.language as LinkDto['language'],
    views: row.views,
    state: linkState(row, now),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  }
}

/**
 * A link as the audit log keeps it: its settings, never its slug or URL (a share link is a key to the PDF, and
 * admins read every entry) and never its password.
 */
export function linkFacts(row: LinkRow): Record<string, string | number | boolean | null> {
  return {
    linkId: row.id,
    fileId: row.fileId,
    roomId: row.roomId,
    label: row.label,
    allowDownload: row.allowDownload,
    searchEngineVisible: row.searchEngineVisible,
    expiresAt: row.expiresAt === null ? null : iso(row.expiresAt),
    maxViews: row.maxViews,
    hasPassword: row.passwordHash !== null,
    disabled: row.disabled,
    access: row.access,
    allow: row.allowReaders.replace(/\n/g, ' '),
    deny: row.denyReaders.replace(/\n/g, ' '),
    agreementVersion: row.agreementVersion,
    notify: row.notify,
    embedOrigins: row.embedOrigins.replace(/\n/g, ' '),
    watermark: row.watermark,
    language: row.language,
  }
}
