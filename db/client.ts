import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import * as schema from './schema/index.ts'

export type DbOptions = {
  /** Pool size per process. */
  max?: number
  /** Called when an idle pooled connection fails (e.g. the server restarted). */
  onIdleError?: (error: Error) => void
}

/** Creates a pool and its Drizzle handle. No side effects on import. */
export function createDb(databaseUrl: string, options: DbOptions = {}) {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max ?? 10,
    connectionTimeoutMillis: 10_000,
  })
  // Without this listener an idle connection dropped by the server crashes the whole process.
  pool.on('error', (error) => options.onIdleError?.(error))
  const db = drizzle({ client: pool, schema, casing: 'snake_case' })
  return { db, pool }
}

export type Database = ReturnType<typeof createDb>['db']
