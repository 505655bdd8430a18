import type { Client, InStatement, Transaction } from '@libsql/client'

/**
 * Statements that only read. Anything else (PRAGMA and WITH included) counts as a write: a needless cache
 * refill costs little, a missed write would serve a stale row.
 */
const READ_ONLY = /^\s*(?:select|explain)\b/i
type AnyStatement = InStatement | [string, unknown?]
const sqlOf = (statement: AnyStatement) =>
  typeof statement === 'string' ? statement : Array.isArray(statement) ? statement[0] : statement.sql
const writes = (statement: AnyStatement) => !READ_ONLY.test(sqlOf(statement))

/**
 * Wraps the drizzle connection's client so that every write this process makes through it is counted once
 * it is over (committed, or failed and undone). Caches compare that count (hot-sql.ts `dataVersion`) and so
 * see the process's own writes at once, without asking SQLite on every request.
 */
export function trackWrites(client: Client): { client: Client; writes: () => number } {
  let count = 0
  const ended = () => void count++
  const counted = async <T>(isWrite: boolean, work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } finally {
      if (isWrite) ended()
    }
  }
  const tracked = new Proxy(client, {
    get(target, property) {
      switch (property) {
        case 'execute':
          return (...args: Parameters<Client['execute']>) => counted(writes(args[0]), () => target.execute(...(args as [InStatement])))
        case 'batch':
          return (...args: Parameters<Client['batch']>) => counted(args[0].some(writes), () => target.batch(...args))
        case 'migrate':
          return (...args: Parameters<Client['migrate']>) => counted(true, () => target.migrate(...args))
        case 'executeMultiple':
          return (...args: Parameters<Client['executeMultiple']>) => counted(true, () => target.executeMultiple(...args))
        case 'transaction':
          return async (...args: Parameters<Client['transaction']>) => trackTransaction(await target.transaction(...args), ended)
        default:
          return bound(target, property)
      }
    },
  })
  return { client: tracked, writes: () => count }
}

/** An interactive transaction counts as one write when it ends, whichever way. */
function trackTransaction(transaction: Transaction, ended: () => void): Transaction {
  return new Proxy(transaction, {
    get(target, property) {
      const value = bound(target, property)
      if (property === 'commit' || property === 'rollback') {
        return async () => {
          try {
            await value()
          } finally {
            ended()
          }
        }
      }
      if (property === 'close') {
        return () => {
          try {
            value()
          } finally {
            ended()
          }
        }
      }
      return value
    },
  })
}

function bound(target: object, property: string | symbol) {
  const value = Reflect.get(target, property)
  return typeof value === 'function' ? value.bind(target) : value
}
