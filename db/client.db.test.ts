import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'drizzle-orm'
import type pg from 'pg'
import { expect, test } from 'vitest'
import { isDatabaseUnavailable } from '#core/shared/database-errors.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createDb } from './client.ts'

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

test('a connection cut between checkout and BEGIN fails the transaction and gives the connection back: the pool neither shrinks nor hangs on end()', async () => {
  const { url } = await createTestDatabase()
  const { db, pool } = createDb(url, { max: 2 })
  // Cut each connection as it is checked out, before the transaction's BEGIN is sent (as when
  // the database restarts at that moment).
  let cut = 0
  const cutOnCheckout = (client: pg.PoolClient) => {
    cut++
    ;(client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy()
  }
  pool.on('acquire', cutOnCheckout)
  for (let attempt = 0; attempt < 3; attempt++) {
    const failure = await db
      .transaction(async (tx) => tx.execute(sql`SELECT 1`))
      .then(
        () => null,
        (error: unknown) => error,
      )
    expect(isDatabaseUnavailable(failure), String(failure)).toBe(true)
  }
  pool.off('acquire', cutOnCheckout)
  expect(cut).toBe(3)
  // More failed transactions than the pool has connections, and none is still checked out.
  expect(pool.totalCount - pool.idleCount).toBe(0)
  const [row] = (await db.transaction(async (tx) => tx.execute(sql`SELECT 1 AS ok`))).rows
  expect(row).toEqual({ ok: 1 })
  // The transaction options still apply.
  const isolation = await db.transaction(async (tx) => tx.execute(sql`SHOW transaction_isolation`), {
    isolationLevel: 'serializable',
  })
  expect(isolation.rows).toEqual([{ transaction_isolation: 'serializable' }])
  const ended = await Promise.race([pool.end().then(() => 'ended'), sleep(5_000).then(() => 'still waiting')])
  expect(ended).toBe('ended')
})

test('when the rollback fails too (the connection went under it), the caller hears the first failure and the connection is not pooled again', async () => {
  const { url } = await createTestDatabase()
  const { db, pool } = createDb(url, { max: 1 })
  const why = new Error('the work failed')
  const failure = await db
    .transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`)
      const client = (tx as unknown as { session: { client: pg.PoolClient } }).session.client
      ;(client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy()
      throw why
    })
    .then(
      () => null,
      (error: unknown) => error,
    )
  expect(failure).toBe(why)
  expect(pool.totalCount - pool.idleCount).toBe(0)
  const [row] = (await db.transaction(async (tx) => tx.execute(sql`SELECT 1 AS ok`))).rows
  expect(row).toEqual({ ok: 1 })
  await pool.end()
})
