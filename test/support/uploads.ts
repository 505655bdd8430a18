import { expect } from 'bun:test'
import type { FileDto } from '../../src/routes/files/model'
import { bearer } from './bearer'
import { form, type TestServer } from './harness'
import { makePdf } from '../../scripts/support/pdf'

// For tests whose subject comes after the upload (sharing, views, limits on something else…). Tests of the
// upload itself — its status codes, refusals and multipart shapes — send their requests explicitly.

const UPLOAD_PATH = '/api/files/upload'

/** The file part: bytes alone (sent as report.pdf, application/pdf), or with their own name and type. */
export type PdfPart = Uint8Array | { bytes: Uint8Array; name?: string; type?: string }

/** Uploads a PDF as `user` through app.handle and returns the File; fails the test unless it is answered 201. */
export async function uploadPdf(
  server: Pick<TestServer, 'call'>,
  user: { token: string },
  pdf: PdfPart = makePdf(),
  fields: Record<string, string> = {},
): Promise<FileDto> {
  return createdFile(await server.call('POST', UPLOAD_PATH, { token: user.token, body: uploadForm(pdf, fields) }))
}

/** The same over a real socket, to a spawned server at `baseUrl` (`startServer(…).url`). */
export async function uploadPdfTo(
  baseUrl: string,
  token: string,
  pdf: PdfPart = makePdf(),
  fields: Record<string, string> = {},
): Promise<FileDto> {
  return createdFile(await fetch(`${baseUrl}${UPLOAD_PATH}`, { method: 'POST', headers: bearer(token), body: uploadForm(pdf, fields) }))
}

function uploadForm(pdf: PdfPart, fields: Record<string, string>): FormData {
  const part = pdf instanceof Uint8Array ? { bytes: pdf } : pdf
  return form({ ...part, bytes: part.bytes as Uint8Array<ArrayBuffer> }, fields)
}

async function createdFile(response: Response): Promise<FileDto> {
  const body = await response.text()
  expect(response.status, `the upload was answered ${response.status}: ${body}`).toBe(201)
  return JSON.parse(body).data
}
