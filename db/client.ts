import { sql, type TablesRelationalConfig } from 'drizzle-orm'
import { drizzle, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres'
import type { PgTransactionConfig } from 'drizzle-orm/pg-core'
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
  releaseEveryTransactionClient(db as unknown as { session: Session })
  return { db, pool }
}

type Session = NodePgSession<Record<string, unknown>, TablesRelationalConfig>

/**
 * Drizzle 0.45.4 (the latest) sends a pool transaction's BEGIN before its try/finally: when BEGIN
 * fails (the connection was cut between checkout and BEGIN, as when the database restarts) the
 * client is never released. The pool loses that connection for good (after `max` such failures
 * every request waits for a connection and gets 503) and `pool.end()` waits for it forever (a
 * shutdown that never ends). This is Drizzle's own `transaction`, with BEGIN inside the `try`; a
 * released client whose connection broke is dropped by the pool, which checks that itself.
 */
function releaseEveryTransactionClient(db: { session: Session }) {
  const { session } = db
  const { dialect, schema, options } = session as unknown as {
    dialect: ConstructorParameters<typeof NodePgSession>[1]
    schema: ConstructorParameters<typeof NodePgSession>[2]
    options: ConstructorParameters<typeof NodePgSession>[3]
  }
  const pool = (session as unknown as { client: pg.Pool }).client
  session.transaction = async <T>(
    work: (tx: NodePgTransaction<Record<string, unknown>, TablesRelationalConfig>) => Promise<T>,
    config?: PgTransactionConfig,
  ): Promise<T> => {
    const client = await pool.connect()
    let broken: Error | undefined
    try {
      const tx = new NodePgTransaction(dialect, new NodePgSession(client, dialect, schema, options), schema)
      await tx.execute(sql`begin`)
      try {
        if (config) await tx.setTransaction(config)
        const result = await work(tx)
        await tx.execute(sql`commit`)
        return result
      } catch (error) {
        // The caller hears the first failure (a commit cut off is still a lost connection: "may
        // or may not have been saved"), not the rollback's; a client whose rollback failed is
        // destroyed rather than pooled again.
        await tx.execute(sql`rollback`).catch((rollbackError: Error) => {
          broken = rollbackError
        })
        throw error
      }
    } finally {
      client.release(broken)
    }
  }
}

export type Database = ReturnType<typeof createDb>['db']

/** The handle inside `db.transaction(async (tx) => …)`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0]

/** What a function that may run inside the caller's transaction takes: the pool or a transaction. */
export type Executor = Database | Transaction
