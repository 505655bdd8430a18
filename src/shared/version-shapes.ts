/**
 * A file's versions as the dashboard sees them (issue 13, "Versions"): the current PDF first, then the
 * previous ones newest first. Plain types only, bundled into the browser.
 */

/** One entry of GET /api/files/:id/versions. */
export type VersionDto = {
  id: string
  /** The PDF readers get now; its `replacedAt` is null. */
  current: boolean
  filename: string
  fileSize: number
  sha256: string
  uploadedAt: string
  replacedAt: string | null
}
