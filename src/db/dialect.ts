/**
 * Which database this process runs on. One process serves one database (tables.ts binds the tables once);
 * the few SQL texts that cannot be written the same way for both ask here.
 */
export type Dialect = 'sqlite' | 'postgres'

let active: Dialect | undefined

/** `postgres://` and `postgresql://` URLs are PostgreSQL; everything else is libSQL (a file or a libSQL server). */
export const dialectOf = (url: string): Dialect => (/^postgres(?:ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite')

/** Called by openDb. A second, different dialect in the same process is a programming error. */
export function useDialect(dialect: Dialect): void {
  if (active !== undefined && active !== dialect) {
    throw new Error(`this process already runs on ${active}; one process serves one database`)
  }
  active = dialect
}

export const activeDialect = (): Dialect => active ?? 'sqlite'
