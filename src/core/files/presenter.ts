import type { FileWithLink } from './file-rows'
import { shareUrlOf } from '../links/share-url'
import type { FileDto, VersionDto } from '../../routes/files/model'
import type { VersionEntry } from './list-versions'

/**
 * The only way a file row leaves the server: the listed fields of the File resource, nothing else. shareUrl and
 * the two switches are the file's default link's; `source` is what the sender of a file request's file gave.
 */
export function toFileDto(row: FileWithLink, publicUrl: string): FileDto {
  return {
    id: row.id,
    filename: row.filename,
    title: row.title,
    desc: row.description,
    description: row.description,
    fileSize: row.size,
    contentType: 'application/pdf',
    allowDownload: row.allowDownload,
    searchEngineVisible: row.searchEngineVisible,
    views: row.views,
    shareUrl: shareUrlOf(publicUrl, row.slug),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    sha256: row.sha256,
    source:
      row.sourceRequestId === null
        ? null
        : { requestId: row.sourceRequestId, name: row.sourceName, email: row.sourceEmail, note: row.sourceNote },
  }
}

/** A version of a file as it leaves the server. */
export function toVersionDto(entry: VersionEntry): VersionDto {
  return {
    id: entry.id,
    current: entry.current,
    filename: entry.filename,
    fileSize: entry.size,
    sha256: entry.sha256,
    uploadedAt: new Date(entry.uploadedAt).toISOString(),
    replacedAt: entry.replacedAt === null ? null : new Date(entry.replacedAt).toISOString(),
  }
}
