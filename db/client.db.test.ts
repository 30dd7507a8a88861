import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { isDatabaseUnavailable } from '#core/shared/database-errors.ts'
import { createTestDatabase } from '#tests/db.ts'

// A connection killed under the app (docs/decisions/015-database-outage.md): the error reaches
// the work that used it, never the process, and the pool goes on with fresh connections.

test('a connection terminated inside a transaction fails that transaction only; the pool recovers', async () => {
  const { db, pool } = await createTestDatabase()
  let unhandled: unknown = null
  const onUncaught = (error: unknown) => {
    unhandled = error
  }
  process.on('uncaughtException', onUncaught)
  try {
    const transaction = db.transaction(async (tx) => {
      const [row] = (await tx.execute(sql`SELECT pg_backend_pid() AS pid`)).rows as { pid: number }[]
      // Killed from outside while the transaction is open and idle between statements, as an
      // administrator (or a restarting server) would.
      await pool.query('SELECT pg_terminate_backend($1)', [row?.pid])
      await sleep(200)
      await tx.execute(sql`SELECT 1`)
    })
    const failure = await transaction.then(
      () => null,
      (error: unknown) => error,
    )
    expect(isDatabaseUnavailable(failure)).toBe(true)
    await sleep(100)
    expect(unhandled).toBeNull()
    expect((await pool.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }])
  } finally {
    process.off('uncaughtException', onUncaught)
  }
})
