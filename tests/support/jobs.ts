import type pg from 'pg'
import { createJobQueue, type JobHandlers, type JobQueue } from '#core/jobs/job-queue.ts'
import { type AppJobs, JOBS } from '#core/jobs/registry.ts'

/**
 * Waits, polling, until no job of `name` is waiting or running in the app's queue: e-mails and
 * other effects happen in a worker just after the answer, so a test that counts them first lets
 * the earlier ones land. Fails after `timeoutMs`.
 */
export async function waitForJobsIdle(pool: pg.Pool, name: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
      [name],
    )
    if (rows[0].n === 0) return
    if (Date.now() > deadline)
      throw new Error(`${rows[0].n} ${name} job(s) still pending after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** How many jobs of `name` were ever enqueued (and not yet deleted by retention). */
export async function countJobs(pool: pg.Pool, name: string): Promise<number> {
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1', [name])
  return rows[0].n
}

/**
 * A handler for every job of the registry that does nothing, with a test's own where it gives one:
 * for a queue a test writes to but does not work (or works only the job it is about).
 */
export function idleJobHandlers(own: Partial<JobHandlers<AppJobs>> = {}): JobHandlers<AppJobs> {
  const idle = async () => {}
  const handlers = Object.fromEntries(Object.keys(JOBS).map((name) => [name, idle]))
  return { ...handlers, ...own } as JobHandlers<AppJobs>
}

/**
 * The app's job queue (every job of the registry) on a test database, started. It does not work
 * its jobs: a test writes real jobs to pgboss.job in its transactions and runs what it needs by
 * calling a handler. With `work`, it works them with `handlers` (idle for the jobs not given),
 * polling every `pollingIntervalSeconds`. Schedules are off; nothing is logged. The caller stops
 * it (`onFileCleanup(() => jobs.stop({ timeoutMs: 1000 }))` in a test file).
 */
export async function startTestJobQueue(
  pool: pg.Pool,
  options: { handlers?: Partial<JobHandlers<AppJobs>>; work?: boolean; pollingIntervalSeconds?: number } = {},
): Promise<JobQueue<AppJobs>> {
  const quiet = () => {}
  const jobs = createJobQueue({
    pool,
    jobs: JOBS,
    handlers: idleJobHandlers(options.handlers),
    logger: { info: quiet, warn: quiet, error: quiet },
    schedules: false,
    work: options.work ?? false,
    pollingIntervalSeconds: options.pollingIntervalSeconds,
  })
  await jobs.start()
  return jobs
}
