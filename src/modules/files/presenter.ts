import type { FileWithLink } from '../../core/files/file-rows'
import { shareUrlOf } from '../../core/links/share-url'
import type { FileDto } from './model'

/**
 * The only way a file row leaves the server: the listed fields of the File resource, nothing else. shareUrl and
 * the two switches are the file's default link's.
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
  }
}
