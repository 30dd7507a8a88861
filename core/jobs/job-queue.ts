import { sql } from 'drizzle-orm'
import type pg from 'pg'
import { fromDrizzle, type JobResult, type JobWithMetadata, PgBoss } from 'pg-boss'
import type { z } from 'zod'
import { BUSINESS_TIME_ZONE } from '#core/shared/business-time.ts'
import { isDatabaseUnavailable } from '#core/shared/database-errors.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Database } from '#db/client.ts'

/**
 * A durable job queue in PostgreSQL (pg-boss; docs/decisions/009-job-queue.md). Jobs are written
 * through the caller's transaction, so a rolled-back change leaves no job; every app process runs
 * the workers; a job is handed to one worker at a time and retried with back-off, then moved to
 * its dead-letter queue. Delivery is at least once: handlers must be idempotent.
 *
 * A queue with work drains at the speed of the work: each worker claims a batch (SKIP LOCKED),
 * runs its jobs at once and fetches again straight away while batches come back full; only an
 * idle worker waits `pollingIntervalSeconds`. A claimed job holds a lease (pg-boss's heartbeat,
 * renewed while its handler runs): when the process that claimed it dies, the lease lapses and
 * the job is run again within about half a minute, not after its expiry.
 */

/** Where a job's retry policy and payload are declared (core/jobs/registry.ts lists them all). */
export type JobDefinition<Payload extends z.ZodType = z.ZodType> = {
  /** Checked when the job is enqueued (a bad payload is refused) and again when it runs. */
  payload: Payload
  /** Retries after the first attempt; after the last one the job goes to `<name>.dead`. */
  retryLimit: number
  /** Seconds before the first retry; doubled (with jitter) for each later one. */
  retryDelaySeconds: number
  /** The longest wait between two attempts. */
  retryDelayMaxSeconds: number
  /** An attempt still running after this long is counted as failed (a worker that died). */
  expireInSeconds: number
  /** How long a finished job is kept (its payload included) before pg-boss deletes it. */
  keepFinishedSeconds?: number
  /** Runs on a schedule in every deployment (pg-boss sends one job per occurrence, not one per process). */
  schedule?: { cron: string; payload: z.input<Payload> }
}

export type JobDefinitions = Record<string, JobDefinition>

/** Names a registry's jobs by their payload (what `enqueue` accepts, what a handler receives). */
export type JobPayload<Jobs extends JobDefinitions, Name extends keyof Jobs> = z.output<Jobs[Name]['payload']>

export type JobContext = {
  id: string
  /** 1 for the first try. */
  attempt: number
  /** No retry follows if this attempt fails: the job is dead-lettered. */
  lastAttempt: boolean
  /** Aborted when the queue stops past its grace period: pass it on to network calls. */
  signal: AbortSignal
}

export type JobHandler<Payload> = (payload: Payload, job: JobContext) => Promise<void>

export type JobHandlers<Jobs extends JobDefinitions> = {
  [Name in keyof Jobs]: JobHandler<JobPayload<Jobs, Name>>
}

/** A Drizzle database or transaction: whatever the caller is writing its change through. */
export type JobWriter = Pick<Database, 'execute'>

export type EnqueueOptions = {
  /**
   * At most one job of this name with this key per window of `seconds`: a second enqueue in the
   * window returns null (e.g. `{ key: 'storage:pkg-1:t-3', seconds: 86_400 }` for a daily reminder).
   */
  singleton?: { key: string; seconds: number }
  /** Not before this time (a Date, or seconds from now). */
  startAfter?: Date | number
}

/** The part of the queue that services need: adding jobs. */
export type JobEnqueuer<Jobs extends JobDefinitions> = {
  /**
   * Writes a job through `db` (pass the transaction that makes the change the job follows up).
   * Returns the job id, or null when `singleton` found one already in its window.
   * @throws AppError `invalid` when the payload does not fit the job's schema (nothing written).
   */
  enqueue<Name extends keyof Jobs & string>(
    db: JobWriter,
    name: Name,
    payload: z.input<Jobs[Name]['payload']>,
    options?: EnqueueOptions,
  ): Promise<string | null>
}

export type JobQueue<Jobs extends JobDefinitions> = JobEnqueuer<Jobs> & {
  /** Creates the queues, starts the workers (unless `work: false`) and the scheduler. */
  start(): Promise<void>
  /** Stops taking jobs and waits for those in flight, up to `timeoutMs`; later ones are retried. */
  stop(options?: { timeoutMs?: number }): Promise<void>
  /**
   * Runs `name` on a cron schedule (Japan time unless `tz` says otherwise); one job per occurrence
   * however many processes run. `key` tells apart several schedules of one job.
   */
  schedule<Name extends keyof Jobs & string>(
    name: Name,
    cron: string,
    payload: z.input<Jobs[Name]['payload']>,
    options?: { tz?: string; key?: string },
  ): Promise<void>
  unschedule(name: keyof Jobs & string, key?: string): Promise<void>
}

export type JobLogger = {
  info(object: object, message: string): void
  warn(object: object, message: string): void
  error(object: object, message: string): void
}

export { BUSINESS_TIME_ZONE }

/** The dead-letter queue of a job: where it lands after its last failed attempt. */
export const deadLetterQueue = (name: string) => `${name}.dead`

/** Keeps the identity of a registry's names and payload types; the object itself is unchanged. */
export function defineJobs<const Jobs extends JobDefinitions>(jobs: Jobs): Jobs {
  return jobs
}

/** The lease of a claimed job, in seconds (pg-boss's heartbeat; its minimum is 10). */
export const JOB_LEASE_SECONDS = 10
/** How often the lease is renewed while the job runs. */
export const JOB_LEASE_RENEW_SECONDS = 3
/** How often lapsed leases are looked for (pg-boss's supervisor and ours). */
export const JOB_LEASE_CHECK_SECONDS = 5

/** What pg-boss writes on a job whose lease lapsed (plans.js `failJobsByHeartbeat`). */
const LEASE_LAPSED_OUTPUT = { value: { message: 'job heartbeat timeout' } }

export type JobQueueOptions<Jobs extends JobDefinitions> = {
  /** The app's pool: the queue adds no connections of its own. */
  pool: pg.Pool
  jobs: Jobs
  handlers: JobHandlers<Jobs>
  logger: JobLogger
  /** How often an idle worker looks for jobs (pg-boss's minimum is 0.5); a busy one does not wait. */
  pollingIntervalSeconds?: number
  /** Fetch loops per queue in this process (each runs its batch, then fetches the next). */
  concurrency?: number
  /**
   * Jobs one worker claims at a time and runs at once (at least 2: a full batch is what keeps a
   * worker fetching without a pause). Up to `concurrency × batchSize` jobs of a queue run at once.
   */
  batchSize?: number
  /** A claimed job's lease (heartbeat) in seconds; pg-boss refuses less than 10. */
  leaseSeconds?: number
  /** How often lapsed leases are looked for; tests make it short. */
  leaseCheckSeconds?: number
  /** Run the jobs' cron schedules (off in tests that do not need them). */
  schedules?: boolean
  /** Work the queues; false for a process that only enqueues (a script, a test that runs handlers itself). */
  work?: boolean
}

/** pg-boss on the app's pool, its errors and warnings going to the logger. */
function createBoss<Jobs extends JobDefinitions>(options: JobQueueOptions<Jobs>): PgBoss {
  const { pool, logger } = options
  const leaseCheckSeconds = options.leaseCheckSeconds ?? JOB_LEASE_CHECK_SECONDS
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values as unknown[]) },
    // db/migrate.ts installs and upgrades the schema under the migration lock.
    migrate: false,
    schedule: options.schedules ?? true,
    // The supervisor fails jobs whose lease lapsed (and those past expireInSeconds): every few
    // seconds, not pg-boss's minute, so a dead process's jobs come back quickly. One process per
    // interval does the pass (a claim in pgboss.queue); the others skip it.
    superviseIntervalSeconds: leaseCheckSeconds,
    monitorIntervalSeconds: leaseCheckSeconds,
  })
  // While the database is away every poll fails: a warning (the workers resume by themselves when
  // it is back); anything else is an error.
  boss.on('error', (error) =>
    isDatabaseUnavailable(error)
      ? logger.warn({ err: error, component: 'jobs' }, 'job queue cannot reach the database')
      : logger.error({ err: error, component: 'jobs' }, 'job queue error'),
  )
  boss.on('warning', (warning) => logger.warn({ component: 'jobs', warning }, 'job queue warning'))
  return boss
}

/** A job's payload checked against its definition; AppError `invalid` for an unknown job or a bad payload. */
function parsePayload(jobs: JobDefinitions, name: string, payload: unknown) {
  const definition = jobs[name]
  if (!definition) throw new AppError('invalid', `Unknown job ${name}`)
  const parsed = definition.payload.safeParse(payload)
  if (!parsed.success)
    throw new AppError('invalid', `Invalid payload for job ${name}: ${parsed.error.message}`)
  return parsed.data as object
}

/** One attempt of a job: its handler on the payload parsed again, a failure logged; its outcome for pg-boss. */
async function runJob<Jobs extends JobDefinitions>(
  options: JobQueueOptions<Jobs>,
  name: string,
  job: JobWithMetadata<unknown>,
): Promise<JobResult> {
  const { jobs, handlers, logger } = options
  const context: JobContext = {
    id: job.id,
    attempt: job.retryCount + 1,
    lastAttempt: job.retryCount >= job.retryLimit,
    signal: job.signal,
  }
  const handler = handlers[name] as JobHandler<unknown>
  try {
    // Parsed again: a job stored by an older release may no longer fit; it fails loudly.
    await handler(parsePayload(jobs, name, job.data), context)
    return { id: job.id, status: 'completed' }
  } catch (error) {
    const log = context.lastAttempt ? logger.error : logger.warn
    log.call(
      logger,
      { err: error, component: 'jobs', job: name, jobId: job.id, attempt: context.attempt },
      context.lastAttempt ? 'job failed for the last time: dead-lettered' : 'job failed: will retry',
    )
    const {
      name: errorName,
      message,
      stack,
    } = error instanceof Error ? error : { name: 'Error', message: String(error), stack: undefined }
    // Retried (or dead-lettered on the last attempt) by pg-boss, like a thrown error.
    return { id: job.id, status: 'failed', output: { name: errorName, message, stack } }
  }
}

const leaseSecondsOf = (options: Pick<JobQueueOptions<JobDefinitions>, 'leaseSeconds'>) =>
  options.leaseSeconds ?? JOB_LEASE_SECONDS

/**
 * Jobs whose lease lapsed (their process died) are put back by pg-boss's supervisor as a retry
 * after the job's back-off (a minute for a forward): brought forward to now, so they run within
 * seconds. A job that failed by itself keeps its back-off. Returns how many were brought forward.
 */
async function bringLapsedForward(pool: pg.Pool, names: string[]): Promise<number> {
  const { rowCount } = await pool.query(
    `UPDATE pgboss.job SET start_after = pgboss.job_now()
      WHERE name = ANY($1::text[]) AND state = 'retry' AND start_after > pgboss.job_now()
        AND output @> $2::jsonb`,
    [names, JSON.stringify(LEASE_LAPSED_OUTPUT)],
  )
  return rowCount ?? 0
}

/** Starts pg-boss, then per job: its queues and retry policy, its worker, its schedule. */
async function startQueues<Jobs extends JobDefinitions>(boss: PgBoss, options: JobQueueOptions<Jobs>) {
  const { jobs, logger } = options
  await boss.start()
  for (const [name, definition] of Object.entries(jobs)) {
    const queue = {
      retryLimit: definition.retryLimit,
      retryDelay: definition.retryDelaySeconds,
      retryBackoff: true,
      retryDelayMax: definition.retryDelayMaxSeconds,
      expireInSeconds: definition.expireInSeconds,
      ...(definition.keepFinishedSeconds ? { deleteAfterSeconds: definition.keepFinishedSeconds } : {}),
    }
    // Creating is a no-op when the queue exists; the update carries changed retry policies.
    await boss.createQueue(deadLetterQueue(name))
    await boss.createQueue(name, { ...queue, deadLetter: deadLetterQueue(name) })
    await boss.updateQueue(name, { ...queue, deadLetter: deadLetterQueue(name) })
    if (options.work !== false)
      await boss.work(
        name,
        {
          includeMetadata: true,
          perJobResults: true,
          // A batch claimed in one statement (FOR UPDATE SKIP LOCKED), its jobs run at once; while
          // batches come back full the worker fetches again at once, else it polls.
          batchSize: Math.max(2, options.batchSize ?? 20),
          burstWhenBatchFull: true,
          localConcurrency: options.concurrency ?? 2,
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
          heartbeatRefreshSeconds: Math.min(JOB_LEASE_RENEW_SECONDS, leaseSecondsOf(options) / 2),
        },
        (batch) => Promise.all(batch.map((job) => runJob(options, name, job))),
      )
    if (definition.schedule && options.schedules !== false) {
      await boss.schedule(
        name,
        definition.schedule.cron,
        parsePayload(jobs, name, definition.schedule.payload),
        { tz: BUSINESS_TIME_ZONE, heartbeatSeconds: leaseSecondsOf(options) },
      )
    }
  }
  logger.info({ component: 'jobs', queues: Object.keys(jobs) }, 'job queue started')
}

/** The queue of a registry's jobs: enqueueing through the caller's transaction, workers, schedules. */
export function createJobQueue<Jobs extends JobDefinitions>(options: JobQueueOptions<Jobs>): JobQueue<Jobs> {
  const boss = createBoss(options)
  let leaseTimer: NodeJS.Timeout | undefined
  let sweeping: Promise<unknown> = Promise.resolve()
  return {
    async enqueue(db, name, payload, enqueueOptions = {}) {
      const data = parsePayload(options.jobs, name, payload)
      return boss.send(name, data, {
        db: fromDrizzle(db, sql),
        // The job's lease: renewed by the worker that runs it, lapsed when that process dies.
        heartbeatSeconds: leaseSecondsOf(options),
        ...(enqueueOptions.singleton
          ? { singletonKey: enqueueOptions.singleton.key, singletonSeconds: enqueueOptions.singleton.seconds }
          : {}),
        ...(enqueueOptions.startAfter !== undefined ? { startAfter: enqueueOptions.startAfter } : {}),
      })
    },

    async start() {
      await startQueues(boss, options)
      if (options.work === false) return
      const names = Object.keys(options.jobs)
      leaseTimer = setInterval(
        () => {
          sweeping = bringLapsedForward(options.pool, names).then(
            (count) => {
              if (count > 0)
                options.logger.warn(
                  { component: 'jobs', jobs: count },
                  'jobs of a process that stopped answering are run again',
                )
            },
            (error: unknown) =>
              isDatabaseUnavailable(error)
                ? undefined
                : options.logger.error({ err: error, component: 'jobs' }, 'lapsed job leases not swept'),
          )
        },
        (options.leaseCheckSeconds ?? JOB_LEASE_CHECK_SECONDS) * 1000,
      )
      leaseTimer.unref()
    },

    async stop({ timeoutMs = 20_000 } = {}) {
      clearInterval(leaseTimer)
      await sweeping
      await boss.stop({ graceful: true, timeout: timeoutMs, close: false })
    },

    async schedule(name, cron, payload, scheduleOptions = {}) {
      await boss.schedule(name, cron, parsePayload(options.jobs, name, payload), {
        tz: scheduleOptions.tz ?? BUSINESS_TIME_ZONE,
        ...(scheduleOptions.key ? { key: scheduleOptions.key } : {}),
      })
    },

    async unschedule(name, key) {
      await boss.unschedule(name, key)
    },
  }
}
