import { badRequest } from '../../errors'
import { checkText } from '../../lib/text'
import { ROOM_LIMITS } from '../../shared/room-shapes'

/** One document of a room as a request names it: the file, and its folder ("" or absent: the top). */
export type RoomItemInput = { fileId: string; folder?: string }

/** One document as it is stored: the file, its folder path, its place in the room's order (from 0). */
export type RoomItem = { fileId: string; folder: string; position: number }

/** A room's name, stored NFC; or the 400 that says why not. */
export function roomName(raw: string): string {
  const check = checkText(raw, { max: ROOM_LIMITS.name, multiline: false })
  if (!check.ok) throw badRequest(`name ${check.problem}`)
  if (check.value.trim() === '') throw badRequest('name must not be empty')
  return check.value
}

/** A room's description (line breaks kept), stored NFC; or the 400 that says why not. */
export function roomDescription(raw: string): string {
  const check = checkText(raw, { max: ROOM_LIMITS.description, multiline: true })
  if (!check.ok) throw badRequest(`description ${check.problem}`)
  return check.value
}

/**
 * A folder path as stored: "" (the top) or names joined by `/`, each name not blank, not `.` or `..`, without
 * `\`, control or display-trick characters, within the limits. A leading, trailing or doubled `/` is refused
 * rather than mended, so what the owner sent is what readers see (and what a ZIP's entries are named after).
 */
export function folderPath(raw: string, index: number): string {
  const label = `items[${index}].folder`
  const check = checkText(raw, { max: ROOM_LIMITS.folder, multiline: false })
  if (!check.ok) throw badRequest(`${label} ${check.problem}`)
  const path = check.value
  if (path === '') return ''
  const parts = path.split('/')
  if (parts.length > ROOM_LIMITS.folderDepth) throw badRequest(`${label} may be at most ${ROOM_LIMITS.folderDepth} folders deep`)
  for (const part of parts) {
    if (part.trim() === '') throw badRequest(`${label} must not start or end with /, nor have an empty folder name`)
    if (part !== part.trim()) throw badRequest(`${label} must not have a folder name that starts or ends with a space`)
    if (part === '.' || part === '..') throw badRequest(`${label} must not name . or ..`)
    if (part.includes('\\')) throw badRequest(`${label} must not contain \\`)
    if ([...part].length > ROOM_LIMITS.folderPart)
      throw badRequest(`${label} may have folder names of at most ${ROOM_LIMITS.folderPart} characters`)
  }
  return path
}

/** The ordered documents of a room from a request: folders checked, order kept, each file at most once. */
export function roomItems(items: readonly RoomItemInput[]): RoomItem[] {
  if (items.length > ROOM_LIMITS.items) throw badRequest(`A room may hold at most ${ROOM_LIMITS.items} documents`)
  const seen = new Set<string>()
  return items.map((item, position) => {
    if (seen.has(item.fileId)) throw badRequest(`items[${position}].fileId names a file already in the room`)
    seen.add(item.fileId)
    return { fileId: item.fileId, folder: folderPath(item.folder ?? '', position), position }
  })
}
