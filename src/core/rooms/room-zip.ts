import { makeZip } from 'client-zip'
import type { AppContext } from '../context'
import type { BytesDecision } from '../share/open-bytes'
import type { RoomDocument } from './room-rows'

/**
 * The ZIP of a room's documents (`<link URL>/download`, docs/rooms.md): each in its folder, under a safe name,
 * stored (PDFs do not compress), streamed by client-zip (zip64 past 4 GiB) as the reader takes it. `open` decides
 * each document as its own `/docs/:fileId/download` would (gates, membership now, the reader's watermarked copy,
 * the download recorded); a document that does not open any more (taken out meanwhile) is left out. Each
 * document is opened only when the ZIP reaches it, so at most one stamped copy is being made at a time.
 */
export function roomZip(
  ctx: AppContext,
  documents: readonly RoomDocument[],
  open: (fileId: string) => Promise<BytesDecision>,
): ReadableStream<Uint8Array> {
  const names = new Set<string>()
  async function* entries() {
    for (const document of documents) {
      const decision = await open(document.fileId)
      if (decision.kind !== 'bytes') continue
      const { stamped, shared } = decision
      const name = uniqueName(names, document.folder, safeName(document.title || document.filename))
      const body = stamped ? Bun.file(stamped.path).stream() : new Response(await ctx.blobs.body(shared.file.blobKey)).body
      if (!body) continue
      yield { name, input: body, size: stamped ? stamped.size : shared.file.size, lastModified: new Date(shared.file.uploadedAt) }
    }
  }
  return makeZip(entries())
}

/** A document's name in the ZIP: no path separators, control or display-trick characters; at most 150 characters; `.pdf`. */
export function safeName(title: string): string {
  const cleaned = title
    .normalize('NFC')
    .replace(/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069/\\:*?"<>|]/gu, '_')
    .trim()
    .replace(/^\.+/, '_')
  const base = [...(cleaned === '' ? 'document' : cleaned)].slice(0, 150).join('')
  return /\.pdf$/i.test(base) ? base : `${base}.pdf`
}

/** `folder/name`, with ` (2)`, ` (3)`… before `.pdf` when the folder already holds that name. */
function uniqueName(taken: Set<string>, folder: string, name: string): string {
  const path = (candidate: string) => (folder === '' ? candidate : `${folder}/${candidate}`)
  let candidate = path(name)
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = path(name.replace(/\.pdf$/i, ` (${n}).pdf`))
  taken.add(candidate.toLowerCase())
  return candidate
}
