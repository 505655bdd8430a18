import type { Database } from '../../db/database'
import type { PageDialect } from './page-dialect'
import { pgPages } from './pg-pages'
import { sqlitePages } from './sqlite-pages'

/** The page-text index of a database's dialect. */
export const pageDialectOf = (db: Pick<Database, 'dialect'>): PageDialect => (db.dialect === 'postgres' ? pgPages : sqlitePages)
