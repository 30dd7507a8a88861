import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import * as schema from './schema/index.ts'

export type DbOptions = {
  /** Pool size per process. */
  max?: number
  /** Called when an idle pooled connection fails (e.g. the server restarted). */
  onIdleError?: (error: Error) => void
  /** How long a checkout may wait for a new connection (5 s). */
  connectionTimeoutMillis?: number
}

/** Creates a pool and its Drizzle handle. No side effects on import. */
export function createDb(databaseUrl: string, options: DbOptions = {}) {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max ?? 10,
    // During an outage a request fails fast (503) instead of waiting: a refused connection fails
    // at once, a silent network within this time.
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
  })
  // Without this listener an idle connection dropped by the server crashes the whole process; the
  // pool has already discarded the client, and the next checkout opens a fresh connection.
  pool.on('error', (error) => options.onIdleError?.(error))
  // A client checked out of the pool (a transaction, pg-boss's work) has no listener of the pool's:
  // a connection cut under it (a database restart, a network cut) would emit an unhandled 'error'
  // and end the process. The query in flight already fails with the error and the client, no
  // longer queryable, is dropped when released; this listener only keeps the event handled.
  pool.on('connect', (client) => {
    client.on('error', () => undefined)
  })
  const db = drizzle({ client: pool, schema, casing: 'snake_case' })
  return { db, pool }
}

export type Database = ReturnType<typeof createDb>['db']

/** The handle inside `db.transaction(async (tx) => …)`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/** What a function that may run inside the caller's transaction takes: the pool or a transaction. */
export type Executor = Database | Transaction
