import { parseJsonBoolean } from '../../lib/booleans'
import { type AccessMode, storedList } from '../links/readers'
import { parseExpiresAt, type NotifyMode } from '../links/link-input'
import type { RequestBody } from '../../routes/requests/model'
import { requestText, type RequestText } from './rules'

/** What a client may send for a request, after the rules, as it will be stored. Absent keys were not sent; null clears. */
export type RequestInput = {
  title?: string
  message?: string
  ownerName?: string | null
  maxFiles?: number
  maxFileSize?: number
  /** Milliseconds since the epoch. */
  expiresAt?: number | null
  password?: string | null
  access?: AccessMode
  /** Stored form: canonical entries, one per line ("" for none). */
  allowSenders?: string
  denySenders?: string
  roomId?: string | null
  disabled?: boolean
  notify?: NotifyMode
}

/** A checked body (routes/requests/model.ts) in its stored form: NFC texts, the expiry in milliseconds, lists one entry a line. */
export function toRequestInput(body: RequestBody): RequestInput {
  const input: RequestInput = {}
  if (body.title !== undefined) input.title = stored('title', body.title)
  if (body.message !== undefined) input.message = body.message === null ? '' : stored('message', body.message)
  if (body.ownerName !== undefined) input.ownerName = body.ownerName === null ? null : stored('ownerName', body.ownerName) || null
  if (body.maxFiles !== undefined) input.maxFiles = body.maxFiles
  if (body.maxFileSize !== undefined) input.maxFileSize = body.maxFileSize
  if (body.expiresAt !== undefined) input.expiresAt = body.expiresAt === null ? null : checked(parseExpiresAt(body.expiresAt))
  if (body.password !== undefined) input.password = body.password
  if (body.access !== undefined) input.access = body.access
  if (body.allow !== undefined) input.allowSenders = storedList(body.allow ?? [])
  if (body.deny !== undefined) input.denySenders = storedList(body.deny ?? [])
  if (body.roomId !== undefined) input.roomId = body.roomId
  if (body.disabled !== undefined) input.disabled = checked(parseJsonBoolean(body.disabled))
  if (body.notify !== undefined) input.notify = body.notify
  return input
}

function stored(field: RequestText, value: string): string {
  const check = requestText(field, value)
  if (!check.ok) throw new Error(`${field} was not checked before it was stored: ${check.problem}`)
  return check.value
}

function checked<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('a request field was stored without being checked')
  return value
}
