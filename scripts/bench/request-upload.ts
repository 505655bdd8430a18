import { startClamd } from '../support/clamd'
import { median } from './support'
import { curlUpload, deleteAll, uploadSetup } from './upload'

/** Median wall times (ms) of one 100 MiB upload, the owner's and a sender's through a file request, on one server. */
export type RequestUploadTimes = { ownerMs: number; requestMs: number }

export type RequestUploadRun = { plain: RequestUploadTimes; scanned: RequestUploadTimes }

/**
 * One 100 MiB upload (curl) through a file request (`POST /u/<slug>/files`, no token) against the owner's own
 * upload (`POST /api/files/upload`) on the same server, taken in turns, `runs` of each: first without a virus
 * scanner, then on a server whose every received PDF is streamed to a real clamd (Debian's clamav-daemon,
 * started here with a one-signature database, as test/server/virus-scan.test.ts does) before it is committed.
 * Everything is deleted after each round, so every round starts from the same disk state (a request's
 * `received` never goes down: it asks for more files than the rounds send).
 */
export async function requestUploads(binary: string, runs = 3): Promise<RequestUploadRun> {
  const plain = await timesOn(binary, {}, runs)
  const clamd = await startClamd(new TextEncoder().encode('not in any upload'))
  try {
    return { plain, scanned: await timesOn(binary, { PDFSHARE_CLAMD: clamd.setting }, runs) }
  } finally {
    await clamd.stop()
    clamd.remove()
  }
}

async function timesOn(binary: string, env: Record<string, string>, runs: number): Promise<RequestUploadTimes> {
  const setup = await uploadSetup(binary, 1, env)
  try {
    const { url } = setup.server
    const token = setup.tokens[0]!
    const created = await fetch(`${url}/api/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Bench', maxFiles: 100 }),
    })
    if (created.status !== 201) throw new Error(`POST /api/requests answered ${created.status}: ${await created.text()}`)
    // The slug from the request's URL, on the server's own address (its public URL is not set here).
    const slug = ((await created.json()) as { data: { url: string } }).data.url.split('/u/')[1]
    const requestUrl = `${url}/u/${slug}`
    const timed = async (target: string, bearer: string) => {
      const started = performance.now()
      const status = await curlUpload(target, bearer, setup.file)
      if (status !== '201') throw new Error(`${target} answered ${status}`)
      return performance.now() - started
    }
    // The request's route warmed up like the owner's (uploadSetup warmed that one).
    await curlUpload(`${requestUrl}/files`, '', '', true)
    const owner: number[] = []
    const request: number[] = []
    for (let run = 0; run < runs; run++) {
      owner.push(await timed(`${url}/api/files/upload`, token))
      request.push(await timed(`${requestUrl}/files`, ''))
      await deleteAll(url, token)
    }
    return { ownerMs: median(owner), requestMs: median(request) }
  } finally {
    await setup.stop()
  }
}

if (import.meta.main) {
  // `bun scripts/bench/request-upload.ts`: this row alone, printed (the full run is `bun run bench`).
  const { ensureBinary } = await import('./support')
  console.log(JSON.stringify(await requestUploads(ensureBinary()), null, 2))
}
