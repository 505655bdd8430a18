/**
 * The File resource and its limits as the dashboard sees them. This folder is bundled into the browser:
 * plain types and constants only, no imports from outside it, no runtime APIs of Bun or Node.
 * The server's t-schemas (modules/files/model.ts) are built from these constants, and a type test
 * (test/types/shared-shapes.test.ts) keeps the types here equal to the ones the schemas produce.
 */

/** The longest filename, title and description, counted by `textLength`. */
export const TEXT_LIMITS = { filename: 255, title: 160, desc: 500 } as const

/**
 * How the text limits count: Unicode code points after NFC, so "é" is 1 however it was typed, and "😀" is 1.
 * The dashboard's counters and the server's text rule (lib/text.ts) both count with this.
 */
export function textLength(text: string): number {
  let count = 0
  for (const _ of text.normalize('NFC')) count++
  return count
}

/** How a list of files can be ordered (`?order=`); the first is the default. */
export const LIST_ORDERS = ['newest', 'oldest', 'name', 'views', 'size'] as const
export type ListOrder = (typeof LIST_ORDERS)[number]

export type FileDto = {
  id: string
  filename: string
  title: string
  desc: string
  description: string
  fileSize: number
  contentType: 'application/pdf'
  allowDownload: boolean
  searchEngineVisible: boolean
  views: number
  shareUrl: string
  createdAt: string
  updatedAt: string
  sha256: string
}

/** One PDF of a file in GET /api/files/:id/versions: the current one (first), or a kept previous one. */
export type VersionDto = {
  id: string
  current: boolean
  filename: string
  fileSize: number
  sha256: string
  uploadedAt: string
  replacedAt: string | null
}

/** One page of GET /api/files. */
export type FileListPage = { data: FileDto[]; nextCursor: string | null }
