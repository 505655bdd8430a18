/**
 * A file's share links as the dashboard sees them (issue 13, "Link resource"). Bundled into the browser like
 * file-shapes.ts: plain types and constants only, no imports from outside this folder.
 */

/** Why a reader gets the document or the 410 page; `disabled` wins over `expired`, which wins over `used_up`. */
export type LinkState = 'active' | 'disabled' | 'expired' | 'used_up'

/** The longest label, in code points (counted with `textLength`, like a title). */
export const LINK_LABEL_MAX = 100
/** A link password's length, in characters. */
export const LINK_PASSWORD_LENGTH = { min: 4, max: 200 } as const
/** The largest view limit. */
export const LINK_MAX_VIEWS = 1_000_000_000

/** GET /api/links/:linkId and each entry of GET /api/files/:id/links. The password is write-only. */
export type LinkDto = {
  id: string
  fileId: string
  url: string
  label: string
  isDefault: boolean
  allowDownload: boolean
  searchEngineVisible: boolean
  expiresAt: string | null
  maxViews: number | null
  hasPassword: boolean
  disabled: boolean
  views: number
  state: LinkState
  createdAt: string
  updatedAt: string
}

/**
 * POST /api/files/:id/links and PATCH /api/links/:linkId. Omitted: the default (POST) or unchanged (PATCH);
 * null clears the password, the expiry, the view limit or the label.
 */
export type LinkInput = {
  label?: string | null
  password?: string | null
  expiresAt?: string | null
  maxViews?: number | null
  allowDownload?: boolean
  searchEngineVisible?: boolean
  disabled?: boolean
}
