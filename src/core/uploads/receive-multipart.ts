import busboy from 'busboy'
import type { Readable } from 'node:stream'
import { badRequest, DomainError, insufficientStorage, notPdf } from '../../errors'
import { randomId } from '../../lib/ids'
import { basename } from '../../lib/text'
import { isDiskFull } from '../../storage/disk-full'
import type { TempFiles } from '../../storage/temp-files'
import { writePdfPart, type ReceivedPdf } from './pdf-part-writer'
import { uploadPaceCheck, type UploadPace } from './upload-pace'

export type MultipartBody = {
  /** Every text field by name (each name at most once). */
  fields: Map<string, string>
  /** The PDF part, already on disk; the caller owns its temp file from here on (`file.temp`). */
  file: ReceivedPdf | undefined
}

export type MultipartOptions = {
  /** Where the file part is written while it arrives (inside the data dir). */
  tempFiles: TempFiles
  maxFileBytes: number
  /** The name of the one file part ("file"). */
  fileField: string
  /** How slow and how long the body may be. */
  pace: UploadPace
}

const ACCEPTED_PDF_TYPES = new Set(['application/pdf', 'application/x-pdf'])

// Text fields are at most 500 code points (2,000 UTF-8 bytes); anything near 16 KiB is not a real form.
const LIMITS = { fieldSize: 16 * 1024, fieldNameSize: 200, fields: 32, files: 1, parts: 40, headerPairs: 20 }

/**
 * Reads a multipart/form-data request with busboy, straight from `request.body`, with backpressure:
 * text fields are collected, the single file part is streamed to a temp file by `writePdfPart`.
 *
 * The first problem found (bad part headers, signature, size, a malformed body, a client that goes away or
 * sends too slowly) stops the read at once: the request body is cancelled, busboy destroyed, the temp file removed, and the
 * problem thrown as a DomainError. Fields may come before or after the file part.
 */
export async function receiveMultipart(request: Request, options: MultipartOptions): Promise<MultipartBody> {
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      limits: LIMITS,
      defParamCharset: 'utf8',
    })
  } catch {
    throw badRequest('Malformed multipart/form-data request: the Content-Type header has no boundary')
  }

  const fields = new Map<string, string>()
  let fileWork: Promise<ReceivedPdf> | undefined
  let failure: Error | undefined
  let rejectFailed: (error: Error) => void = () => {}
  const failed = new Promise<never>((_, reject) => (rejectFailed = reject))
  failed.catch(() => {}) // observed below; this keeps an early failure from counting as unhandled
  // A client mistake keeps its DomainError; anything else (a disk error…) is ours: rethrown as it is, so it
  // becomes a 500 with the cause logged, never blamed on the client as a malformed body.
  const fail = (error: unknown) => {
    if (failure) return
    failure = error instanceof DomainError ? error : (error as Error)
    rejectFailed(failure)
  }
  const finished = new Promise<void>((resolve) => parser.on('close', resolve))

  parser.on('field', (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) fail(badRequest(`Field ${JSON.stringify(name)} is too long`))
    else if (name === options.fileField)
      fail(
        badRequest(`The ${options.fileField} part must be sent as a file with a filename, e.g. curl -F "${options.fileField}=@report.pdf"`),
      )
    else if (fields.has(name)) fail(badRequest(`Field ${JSON.stringify(name)} was sent more than once`))
    else fields.set(name, value)
  })
  parser.on('file', (name, stream, info) => {
    // busboy destroys an unfinished file stream with an error when the body ends early; the writer may not
    // be iterating yet (it is opening the temp file), and an 'error' with no listener would crash the process.
    // The writer still sees the error through its iterator.
    stream.on('error', () => {})
    if (failure) return void stream.resume()
    if (name !== options.fileField) {
      stream.resume()
      return fail(badRequest(`Unexpected file part ${JSON.stringify(name)}; send the PDF in the part named "${options.fileField}"`))
    }
    const clientFilename = basename(info.filename ?? '')
    const problem = partHeaderProblem(clientFilename, info.mimeType)
    if (problem) {
      stream.resume()
      return fail(problem)
    }
    fileWork = options.tempFiles
      .create(`upload-${randomId(12)}.part`)
      .catch((error) => {
        throw isDiskFull(error) ? insufficientStorage('no room for the upload file') : error
      })
      .then((temp) => writePdfPart(stream as Readable, temp, options.maxFileBytes, clientFilename))
    fileWork.catch(fail)
  })
  parser.on('filesLimit', () => fail(badRequest(`Exactly one ${options.fileField} part is allowed; this request has more`)))
  parser.on('fieldsLimit', () => fail(badRequest(`Too many form fields (at most ${LIMITS.fields})`)))
  parser.on('partsLimit', () => fail(badRequest(`Too many form parts (at most ${LIMITS.parts})`)))
  parser.on('error', (error: Error) => fail(badRequest(`Malformed multipart/form-data body: ${error.message}`)))

  const pumping = pump(request, parser, uploadPaceCheck(options.pace), () => failure !== undefined, failed).catch((error: unknown) =>
    fail(error instanceof DomainError ? error : badRequest('The upload was interrupted before it finished')),
  )

  try {
    await Promise.race([Promise.all([pumping, finished]), failed])
    const file = fileWork ? await Promise.race([fileWork, failed]) : undefined
    if (failure) throw failure
    return { fields, file }
  } catch (error) {
    parser.destroy()
    // The temp file, finished or not, is the upload's to discard (receive-upload.ts): once the writer is done with it.
    await fileWork?.catch(() => undefined)
    throw error
  }
}

/**
 * Feeds the request body into busboy, honouring its backpressure, until the end or the first failure.
 * `checkPace` sees the bytes received after each chunk and throws when the client is too slow.
 */
async function pump(
  request: Request,
  parser: busboy.Busboy,
  checkPace: (received: number) => void,
  stopped: () => boolean,
  failed: Promise<never>,
): Promise<void> {
  const reader = request.body?.getReader()
  if (!reader) return void parser.end()
  let received = 0
  let finished = false
  try {
    while (!stopped()) {
      const { done, value } = await reader.read()
      if (done) {
        finished = true
        return void parser.end()
      }
      received += value.byteLength
      checkPace(received)
      if (!parser.write(value)) {
        await Promise.race([new Promise((resolve) => parser.once('drain', resolve)), failed]).catch(() => {})
      }
    }
  } finally {
    // Stop receiving: whatever the client still sends is not read.
    if (!finished) reader.cancel().catch(() => {})
  }
}

function partHeaderProblem(filename: string, mimeType: string): DomainError | undefined {
  if (!filename.toLowerCase().endsWith('.pdf')) {
    return notPdf(`Uploaded file must have a .pdf extension (got ${JSON.stringify(filename)})`)
  }
  if (!ACCEPTED_PDF_TYPES.has(mimeType.toLowerCase())) {
    return notPdf(`Uploaded file must have content type application/pdf (got ${mimeType || 'none'})`)
  }
  return undefined
}

/**
 * The most a valid multipart body can carry besides the PDF: every field at its size limit with long part
 * headers (busboy caps a part's headers at 16 KiB). A declared Content-Length above cap + this cannot fit.
 */
export const MAX_FORM_OVERHEAD_BYTES = LIMITS.parts * (16 * 1024 + LIMITS.fieldSize) + 64 * 1024
