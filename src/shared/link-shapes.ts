/**
 * A file's share links as the dashboard and the server both know them: the limits of a link's fields and
 * the Link resource's shape. Bundled into the browser: plain types and constants only. A type test
 * (test/types/shared-shapes.test.ts) keeps LinkDto equal to the type of modules/links' schema.
 */
export const LINK_LIMITS = {
  /** Longest label, in code points after NFC (counted like the file's texts, `textLength`). */
  label: 100,
  /** A link password's length in code points. */
  passwordMin: 4,
  passwordMax: 200,
  /** The largest view limit. */
  maxViews: 1_000_000_000,
  /** Links a file may have, its default link included. */
  perFile: 100,
} as const

/** What a reader gets from a link now: active, or why not (disabled wins, then expired, then used_up). */
export type LinkState = 'active' | 'disabled' | 'expired' | 'used_up'

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
 * What the dashboard sends to POST /api/files/:id/links and PATCH /api/links/:linkId. Omitted: the default
 * (POST) or unchanged (PATCH); null clears the label, password, expiry or view limit.
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
