import { linkState } from '../../core/links/link-state'
import { shareUrlOf } from '../../core/links/share-url'
import type { LinkRow } from '../../db/tables'
import type { LinkDto } from './model'

const iso = (ms: number) => new Date(ms).toISOString()

/** The only way a link row leaves the server: the listed fields, never the password hash or the slug apart from its url. */
export function toLinkDto(row: LinkRow, publicUrl: string, now: number): LinkDto {
  return {
    id: row.id,
    fileId: row.fileId,
    url: shareUrlOf(publicUrl, row.slug),
    label: row.label,
    isDefault: row.isDefault,
    allowDownload: row.allowDownload,
    searchEngineVisible: row.searchEngineVisible,
    expiresAt: row.expiresAt === null ? null : iso(row.expiresAt),
    maxViews: row.maxViews,
    hasPassword: row.passwordHash !== null,
    disabled: row.disabled,
    views: row.views,
    state: linkState(row, now),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  }
}
