import type pg from 'pg'

/**
 * Waits, polling, until a session of the pool's database is blocked on a lock (a lock it asked
 * for and was not granted), or the session `pid` when given: for a test that starts a statement
 * meant to queue behind a transaction it holds open, before it lets that transaction go on.
 * Fails after `timeoutMs`.
 */
export async function waitForLockWait(
  pool: pg.Pool,
  { pid, timeoutMs = 10_000 }: { pid?: number; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE NOT l.granted AND a.datname = current_database() AND ($1::int IS NULL OR l.pid = $1)`,
      [pid ?? null],
    )
    if (rows[0].n > 0) return
    if (Date.now() > deadline) throw new Error(`no session waited on a lock within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
