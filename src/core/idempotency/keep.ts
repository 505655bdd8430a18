import { type SQL, sql } from 'drizzle-orm'
import type { BatchItem } from 'drizzle-orm/batch'
import type { Tables } from '../../db/database'
import type { AppContext } from '../context'
import type { HeldClaim } from './claim'

/** A write's answer as it is kept and sent again: its status, its body as sent (JSON text), the headers that go with it. */
export type KeptAnswer = { status: number; body: string; headers: Record<string, string> }

/**
 * The Idempotency-Key the request holds, as the service doing its write sees it: `keep(result, onlyIf)` gives
 * the statements that keep the answer `result` becomes, to run in the write's own transaction. `onlyIf` is the
 * condition under which the write happened (the file went in, the swap took place), so a refused write keeps
 * nothing; placed before statements that take away what it looks at (a delete), it is read before them.
 */
export type HeldKey<R> = { keep(result: R, onlyIf: SQL): SQL[] }

/**
 * The statements of a HeldKey: the claim goes and the answer's row takes its place. Another request that took
 * the key over (this one's lease lapsed) holds the row: then nothing is deleted, the INSERT fails on the key,
 * and the write's whole transaction is undone. So a kept answer exists exactly when its write committed, and
 * two requests with one key never both commit.
 */
export function keepStatements(
  { idempotencyKeys }: Pick<Tables, 'idempotencyKeys'>,
  claim: HeldClaim,
  kept: { answer: KeptAnswer; digest: string; now: number; ttlMs: number; onlyIf: SQL },
): SQL[] {
  const { answer, now } = kept
  return [
    sql`DELETE FROM ${idempotencyKeys}
        WHERE user_id = ${claim.userId} AND key = ${claim.key} AND lease = ${claim.lease} AND done = ${false} AND ${kept.onlyIf}`,
    sql`INSERT INTO ${idempotencyKeys} (user_id, key, request, lease, lease_until, done, digest, status, body, headers, created_at, expires_at)
        SELECT ${claim.userId}, ${claim.key}, ${claim.request}, ${claim.lease}, ${now}, ${true}, ${kept.digest}, ${answer.status},
               ${answer.body}, ${JSON.stringify(answer.headers)}, ${now}, ${now + kept.ttlMs}
        WHERE ${kept.onlyIf}`,
  ]
}

/** A HeldKey's statements as items of the write's batch (none without a key). */
export function keptIn<R>(ctx: AppContext, key: HeldKey<R> | undefined, result: R, onlyIf: SQL) {
  return key ? key.keep(result, onlyIf).map((statement) => ctx.db.orm.run(statement)) : []
}

type Batch = [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]

/**
 * The items of a write's batch with the kept answer's statements first, so that their condition is read before
 * the write's own statements change what it looks at (a delete takes the row away, a swap moves updated_at).
 * The results are the batch's, the write's last.
 */
export function keptFirst<R>(ctx: AppContext, key: HeldKey<R> | undefined, result: R, onlyIf: SQL, write: Batch): Batch {
  return [...keptIn(ctx, key, result, onlyIf), ...write] as Batch
}
