export type SqlArg = string | number | boolean | null
/**
 * One statement of a group. `onlyIfPreviousChanged`: run it only if the statement before it in the group
 * changed exactly one row (otherwise it counts as changing none); checked by the connection, so the same
 * text runs on SQLite and PostgreSQL (which has no `changes()`).
 */
export type SqlStatement = { sql: string; args: SqlArg[]; onlyIfPreviousChanged?: boolean }
/** The rows changed by each statement of a group, or the error that undid the group. */
export type GroupResult = number[] | Error

/**
 * What the group-commit engine asks of its executor: run a statement and say how many rows it changed, or run
 * a savepoint command. The executor owns the transaction around it (BEGIN … COMMIT on the embedded file, a
 * libSQL server's or PostgreSQL's transaction) and says which errors must end the whole transaction
 * (`mustRethrow`: PostgreSQL's deadlocks and serialization failures, which undo it all and are retried whole).
 */
export type Step = { statement: SqlStatement } | { savepoint: string }

/**
 * The group commit, written once for every connection: runs `groups` of statements in the executor's
 * transaction and gives the rows changed by each statement, or the error that undid its group, and then the
 * statements `finalize` makes from those results. Groups almost never fail, so they first run under one
 * savepoint (two statements a group fewer); only if one fails is that undone and every group run again under
 * a savepoint of its own, so a failing group is undone alone. A statement marked `onlyIfPreviousChanged` runs
 * only if the one before it in its group changed exactly one row (it counts as changing none otherwise).
 *
 * A generator, so that one engine serves a synchronous connection (whose transaction must never span an
 * await: `runSteps`) and asynchronous ones (`runStepsAsync`) alike.
 */
export function* groupCommit(
  groups: SqlStatement[][],
  finalize: ((results: GroupResult[]) => SqlStatement[]) | undefined,
  mustRethrow: (error: unknown) => boolean = () => false,
): Generator<Step, GroupResult[], number> {
  let results: GroupResult[] = []
  yield { savepoint: 'SAVEPOINT hot_all' }
  try {
    for (const group of groups) results.push(yield* runGroup(group))
    yield { savepoint: 'RELEASE SAVEPOINT hot_all' }
  } catch (error) {
    if (mustRethrow(error)) throw error
    yield { savepoint: 'ROLLBACK TO SAVEPOINT hot_all' }
    yield { savepoint: 'RELEASE SAVEPOINT hot_all' }
    results = []
    for (const group of groups) results.push(yield* guarded(group, mustRethrow))
  }
  for (const statement of finalize?.(results) ?? []) yield { statement }
  return results
}

function* runGroup(group: SqlStatement[]): Generator<Step, number[], number> {
  const changes: number[] = []
  for (const statement of group) changes.push(statement.onlyIfPreviousChanged && changes.at(-1) !== 1 ? 0 : yield { statement })
  return changes
}

/** One group under a savepoint of its own: its error, in its place, if it fails. */
function* guarded(group: SqlStatement[], mustRethrow: (error: unknown) => boolean): Generator<Step, GroupResult, number> {
  yield { savepoint: 'SAVEPOINT hot_group' }
  try {
    const changes = yield* runGroup(group)
    yield { savepoint: 'RELEASE SAVEPOINT hot_group' }
    return changes
  } catch (error) {
    if (mustRethrow(error)) throw error
    yield { savepoint: 'ROLLBACK TO SAVEPOINT hot_group' }
    yield { savepoint: 'RELEASE SAVEPOINT hot_group' }
    return error instanceof Error ? error : new Error(String(error))
  }
}

/** Drives the engine on a synchronous executor: every step runs before this returns, with no await between. */
export function runSteps<T>(engine: Generator<Step, T, number>, execute: (step: Step) => number): T {
  let next = engine.next()
  while (!next.done) {
    let changed: number
    try {
      changed = execute(next.value)
    } catch (error) {
      next = engine.throw(error)
      continue
    }
    next = engine.next(changed)
  }
  return next.value
}

/** The same on an asynchronous executor. */
export async function runStepsAsync<T>(engine: Generator<Step, T, number>, execute: (step: Step) => Promise<number>): Promise<T> {
  let next = engine.next()
  while (!next.done) {
    let changed: number
    try {
      changed = await execute(next.value)
    } catch (error) {
      next = engine.throw(error)
      continue
    }
    next = engine.next(changed)
  }
  return next.value
}
