import type { AppContext } from '../core/context'
import { claimKey, type HeldClaim, type KeyRow, keyRow, RENEW_MS, releaseClaim, renewClaim } from '../core/idempotency/claim'
import { type HeldKey, keepStatements, type KeptAnswer } from '../core/idempotency/keep'
import type { MultipartBody } from '../core/uploads/receive-multipart'
import { badRequest, idempotencyKeyInUse, idempotencyKeyReused } from '../errors'

/** What a route answers: its status, its body, and headers that belong to the answer (Location), kept with it. */
export type Answer<B> = { status: number; body: B; headers?: Record<string, string> }

type SetLike = { status?: number | string; headers: Record<string, unknown> }

/** A request's Idempotency-Key once its route has read the body; without a key, `once` just runs the work. */
export type Keyed = {
  /**
   * An answer is kept for this key already, so this request is a replay or a 422 and its work will not run: an
   * upload then skips the checks made before its body is read (the quota), which a replay must not fail.
   */
  answered: boolean
  /**
   * Runs the write once per key: a first request runs `work` with the HeldKey its service puts into the write's
   * transaction, and answers `answer(result)`; a repeat whose body has the same `digest` gets the kept answer
   * with `Idempotent-Replayed: true` and runs nothing; another digest is a 422.
   */
  once<R, B>(digest: string, work: (key: HeldKey<R> | undefined) => Promise<R>, answer: (result: R) => Answer<B>): Promise<B>
}

/** The header's value: printable ASCII (space to ~), 1 to 255 characters; the draft's quoted form "…" is read without its quotes. */
const KEY = /^[\x20-\x7e]{1,255}$/

/**
 * Idempotency-Key on the API's writes (docs/api.md, Retrying writes), with Stripe's semantics: the key and the
 * answer of its first request live in the database (core/idempotency), per user, so a retry is recognised by
 * whichever instance it reaches. `keyed` is called by a route's handler, after authentication and before its body
 * is read: a malformed key is a 400, a key first sent with another method or path a 422 and a key another
 * request is still working on a 409 (Retry-After), all before the body. While this request holds the key it
 * renews the claim's lease; when it ends its claim goes, unless its write committed and kept the answer in
 * the claim's place. A refused or failed request keeps nothing: it wrote nothing, so the same request with
 * the same key may simply be sent again.
 */
export function idempotentWrites(ctx: AppContext) {
  /**
   * `who`: whose keys they are: the user, and the team their token acts for. A team token's keys live apart from
   * the same user's personal keys and from their other teams' (docs/teams.md), so a key reused across a personal
   * and a team token never replays the other's answer. `scope`: for writes that are not the user's own (a
   * sender's upload through a file request, kept under the request's owner): their keys live apart from the
   * user's and from each other's. Both prefixes hold a newline, which no key sent can, so no key names another's.
   */
  return async function keyed<T>(
    request: Request,
    set: SetLike,
    who: { userId: string; team?: { id: string } | null },
    handle: (keyed: Keyed) => Promise<T>,
    scope?: string,
  ): Promise<T> {
    const sent = request.headers.get('idempotency-key')
    if (sent === null) return handle(unkeyed(set))
    const owner = who.team ? `team\n${who.team.id}\n` : ''
    const key = `${owner}${scope === undefined ? '' : `${scope}\n`}${keyOf(sent)}`
    const userId = who.userId
    const claim = await claimKey(ctx, { userId, key, request: `${request.method} ${new URL(request.url).pathname}` })
    if ('done' in claim) return handle(answered(claim.done, set))
    const renewal = setInterval(() => {
      renewClaim(ctx, claim.held).catch((error: unknown) => ctx.log.error('could not renew an idempotency key', error))
    }, RENEW_MS)
    try {
      return await handle(holding(ctx, claim, set))
    } finally {
      clearInterval(renewal)
      // Nothing when the write kept its answer (the claim is gone); otherwise the key is free again at once.
      await releaseClaim(ctx, claim.held).catch((error: unknown) => ctx.log.error('could not release an idempotency key', error))
    }
  }
}

/** The digest of a request without a body (a DELETE, a restore): the request is its method and path. */
export const NO_BODY = 'none'

/** SHA-256 of a body as JSON with its keys in order, so two bodies that say the same thing have the same digest. */
export function requestDigest(body: unknown): string {
  return new Bun.CryptoHasher('sha256').update(JSON.stringify(body, sortedKeys) ?? '').digest('hex')
}

/**
 * What a multipart request (an upload, a PUT, a file request's upload) is, for its Idempotency-Key: the PDF's
 * SHA-256 and part name, and every field. The same form with the same PDF has the same digest, whatever the
 * order of its parts.
 */
export function formDigest(body: MultipartBody): string {
  const pdf = body.file ? { sha256: body.file.sha256, name: body.file.clientFilename } : null
  return requestDigest({ pdf, fields: Object.fromEntries(body.fields) })
}

function sortedKeys(_: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

function keyOf(sent: string): string {
  const key = sent.length >= 2 && sent.startsWith('"') && sent.endsWith('"') ? sent.slice(1, -1) : sent
  if (!KEY.test(key)) throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters')
  return key
}

function unkeyed(set: SetLike): Keyed {
  return {
    answered: false,
    async once(_digest, work, answer) {
      return send(set, answer(await work(undefined)))
    },
  }
}

/** A key whose first request's write committed: this one gets its answer again, if it is the same request. */
function answered(row: KeyRow, set: SetLike): Keyed {
  return {
    answered: true,
    async once(digest) {
      if (row.digest !== digest) throw idempotencyKeyReused(`it was first sent with ${row.request} and another body`)
      return replay(row, set)
    },
  }
}

/** A key this request holds: the work's write keeps the answer (HeldKey), which this request then sends. */
function holding(ctx: AppContext, claim: { held: HeldClaim }, set: SetLike): Keyed {
  return {
    answered: false,
    async once(digest, work, answer) {
      const key: HeldKey<Parameters<typeof answer>[0]> = {
        keep: (result, onlyIf) =>
          keepStatements(ctx.db.tables, claim.held, {
            answer: kept(answer(result)),
            digest,
            now: ctx.now(),
            ttlMs: ctx.config.idempotencyTtl * 1000,
            onlyIf,
          }),
      }
      let result: Parameters<typeof answer>[0]
      try {
        result = await work(key)
      } catch (error) {
        const now = await keyRow(ctx, claim.held).catch(() => undefined)
        // The write committed and something after it failed (a blob's removal): the kept answer is the truth.
        if (now?.done && now.lease === claim.held.lease) {
          ctx.log.error('a write committed under an idempotency key, and what followed it failed', error)
          return replay(now, set, false)
        }
        // Taken over: this request's lease lapsed and another one now answers for the key.
        if (now && now.lease !== claim.held.lease) throw idempotencyKeyInUse(1)
        throw error
      }
      return send(set, answer(result))
    },
  }
}

function kept<B>(answer: Answer<B>): KeptAnswer {
  return { status: answer.status, body: JSON.stringify(answer.body), headers: answer.headers ?? {} }
}

function send<B>(set: SetLike, answer: Answer<B>): B {
  set.status = answer.status
  Object.assign(set.headers, answer.headers)
  return answer.body
}

function replay<B>(row: KeyRow, set: SetLike, replayed = true): B {
  set.status = row.status ?? 200
  Object.assign(set.headers, JSON.parse(row.headers ?? '{}') as Record<string, string>)
  if (replayed) set.headers['idempotent-replayed'] = 'true'
  return JSON.parse(row.body ?? 'null') as B
}
