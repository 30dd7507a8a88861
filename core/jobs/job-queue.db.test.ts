import { afterEach, beforeAll, expect, test, vi } from 'vitest'
import { z } from 'zod'
import { AppError } from '#core/shared/errors.ts'
import { createTestDatabase } from '#tests/db.ts'
import {
  createJobQueue,
  deadLetterQueue,
  defineJobs,
  type JobContext,
  type JobHandlers,
  type JobQueue,
} from './job-queue.ts'

// The queue on a real database: two instances stand for two app processes.
const JOBS = defineJobs({
  'test.record': {
    payload: z.object({ label: z.string().min(1) }),
    retryLimit: 2,
    retryDelaySeconds: 1,
    retryDelayMaxSeconds: 60,
    expireInSeconds: 30,
  },
  'test.failing': {
    payload: z.object({ label: z.string() }),
    retryLimit: 2,
    retryDelaySeconds: 1,
    retryDelayMaxSeconds: 60,
    expireInSeconds: 30,
  },
})
type Jobs = typeof JOBS

const silent = { info() {}, warn() {}, error() {} }
let database: Awaited<ReturnType<typeof createTestDatabase>>
beforeAll(async () => {
  database = await createTestDatabase()
})

const started: JobQueue<Jobs>[] = []
afterEach(async () => {
  for (let queue = started.pop(); queue; queue = started.pop()) await queue.stop({ timeoutMs: 1000 })
})

async function startQueue(handlers: JobHandlers<Jobs>) {
  const queue = createJobQueue({
    pool: database.pool,
    jobs: JOBS,
    handlers,
    logger: silent,
    pollingIntervalSeconds: 0.5,
    concurrency: 2,
    batchSize: 5,
    schedules: false,
  })
  await queue.start()
  started.push(queue)
  return queue
}

const jobRows = async (name: string) =>
  (
    await database.pool.query(
      'SELECT id, state, retry_count, data FROM pgboss.job WHERE name = $1 ORDER BY created_on',
      [name],
    )
  ).rows as { id: string; state: string; retry_count: number; data: { label: string } }[]

const noop = async () => {}

test('a job enqueued in a rolled-back transaction never runs; one committed beside it runs once', async () => {
  const ran: string[] = []
  const queue = await startQueue({
    'test.record': async ({ label }) => {
      ran.push(label)
    },
    'test.failing': noop,
  })
  await database.db
    .transaction(async (tx) => {
      await queue.enqueue(tx, 'test.record', { label: 'rolled back' })
      throw new Error('the change failed')
    })
    .catch(() => undefined)
  await database.db.transaction(async (tx) => {
    await queue.enqueue(tx, 'test.record', { label: 'committed' })
  })
  await vi.waitFor(() => expect(ran).toContain('committed'), { timeout: 10_000, interval: 50 })
  expect(ran).toEqual(['committed'])
  expect((await jobRows('test.record')).map((row) => row.data.label)).toEqual(['committed'])
})

test('committed jobs run exactly once each with two queue instances polling the same queue', async () => {
  const runs: { label: string; instance: string }[] = []
  const handlers = (instance: string): JobHandlers<Jobs> => ({
    'test.record': async ({ label }) => {
      runs.push({ label, instance })
      await new Promise((resolve) => setTimeout(resolve, 50))
    },
    'test.failing': noop,
  })
  const first = await startQueue(handlers('first'))
  await startQueue(handlers('second'))
  const labels = Array.from({ length: 200 }, (_, i) => `once-${i}`)
  await database.db.transaction(async (tx) => {
    for (const label of labels) await first.enqueue(tx, 'test.record', { label })
  })
  await vi.waitFor(
    async () => {
      const rows = (await jobRows('test.record')).filter((row) => row.data.label.startsWith('once-'))
      expect(rows.every((row) => row.state === 'completed')).toBe(true)
    },
    { timeout: 20_000, interval: 100 },
  )
  expect(runs.map((run) => run.label).sort()).toEqual([...labels].sort())
  // Both processes took part (each runs two batches of 5 at once: 200 jobs of 50 ms take one
  // about a second, longer than the other's 0.5 s poll).
  expect(new Set(runs.map((run) => run.instance)).size).toBe(2)
})

test('a singleton key allows one job per window, from any process; a later start waits', async () => {
  const ran: string[] = []
  const handlers: JobHandlers<Jobs> = {
    'test.record': async ({ label }) => {
      ran.push(label)
    },
    'test.failing': noop,
  }
  const [one, other] = [await startQueue(handlers), await startQueue(handlers)]
  const options = { singleton: { key: 'reminder:pkg-1:t-3', seconds: 3600 }, startAfter: 3600 }
  const first = await one.enqueue(database.db, 'test.record', { label: 'reminder' }, options)
  const second = await other.enqueue(database.db, 'test.record', { label: 'reminder' }, options)
  expect(first).toEqual(expect.any(String))
  expect(second).toBeNull()
  await one.enqueue(database.db, 'test.record', { label: 'now' })
  await vi.waitFor(() => expect(ran).toContain('now'), { timeout: 10_000, interval: 50 })
  expect(ran).not.toContain('reminder')
})

test('a failing handler is retried with growing back-off, then dead-lettered after its last try', async () => {
  const attempts: { at: number; job: JobContext }[] = []
  const queue = await startQueue({
    'test.record': noop,
    'test.failing': async (_payload, job) => {
      attempts.push({ at: performance.now(), job })
      throw new Error(`refused on try ${job.attempt}`)
    },
  })
  const id = await queue.enqueue(database.db, 'test.failing', { label: 'doomed' })
  await vi.waitFor(
    async () =>
      expect((await jobRows(deadLetterQueue('test.failing'))).map((row) => row.data)).toEqual([
        { label: 'doomed' },
      ]),
    { timeout: 30_000, interval: 200 },
  )
  const retryLimit = JOBS['test.failing'].retryLimit
  expect(attempts.map(({ job }) => [job.id, job.attempt, job.lastAttempt])).toEqual([
    [id, 1, false],
    [id, 2, false],
    [id, 3, true],
  ])
  expect(attempts).toHaveLength(retryLimit + 1)
  // retryDelay × 2^n with jitter: at least 1 s, then at least 2 s.
  const [a, b, c] = attempts.map((attempt) => attempt.at)
  expect((b ?? 0) - (a ?? 0)).toBeGreaterThanOrEqual(1000)
  expect((c ?? 0) - (b ?? 0)).toBeGreaterThanOrEqual(2000)
  expect((await jobRows('test.failing')).find((row) => row.id === id)).toMatchObject({
    state: 'failed',
    retry_count: retryLimit,
  })
  // The dead letter is only kept for inspection or redrive: nothing works it.
  await new Promise((resolve) => setTimeout(resolve, 1200))
  expect(attempts).toHaveLength(retryLimit + 1)
})

test('a payload that does not fit its schema is refused at enqueue and writes nothing', async () => {
  const queue = await startQueue({ 'test.record': noop, 'test.failing': noop })
  const before = (await jobRows('test.record')).length
  const refused = await queue
    .enqueue(database.db, 'test.record', { label: '' })
    .catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(AppError)
  expect((refused as AppError).code).toBe('invalid')
  await expect(
    // @ts-expect-error: an unknown job name does not compile either
    queue.enqueue(database.db, 'test.unknown', { label: 'x' }),
  ).rejects.toBeInstanceOf(AppError)
  expect(await jobRows('test.record')).toHaveLength(before)
})

test('stop() waits for the job in flight to finish; it is completed, not retried', async () => {
  let release: () => void = () => {}
  const finished: string[] = []
  let began = false
  const queue = await startQueue({
    'test.record': async ({ label }) => {
      began = true
      await new Promise<void>((resolve) => {
        release = resolve
      })
      finished.push(label)
    },
    'test.failing': noop,
  })
  started.pop()
  const id = await queue.enqueue(database.db, 'test.record', { label: 'in flight' })
  await vi.waitFor(() => expect(began).toBe(true), { timeout: 10_000, interval: 20 })
  const stopping = queue.stop({ timeoutMs: 10_000 })
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(finished).toEqual([])
  release()
  await stopping
  expect(finished).toEqual(['in flight'])
  expect((await jobRows('test.record')).find((row) => row.id === id)).toMatchObject({
    state: 'completed',
    retry_count: 0,
  })
})

test('a schedule is stored with its cron and Japan time zone', async () => {
  const queue = await startQueue({ 'test.record': noop, 'test.failing': noop })
  await queue.schedule('test.record', '0 9 * * *', { label: 'daily' }, { key: 'morning' })
  const { rows } = await database.pool.query(
    'SELECT name, key, cron, timezone, data FROM pgboss.schedule WHERE name = $1',
    ['test.record'],
  )
  expect(rows).toEqual([
    {
      name: 'test.record',
      key: 'morning',
      cron: '0 9 * * *',
      timezone: 'Asia/Tokyo',
      data: { label: 'daily' },
    },
  ])
  await queue.unschedule('test.record', 'morning')
  expect((await database.pool.query('SELECT count(*)::int AS n FROM pgboss.schedule')).rows[0].n).toBe(0)
})

test('a queue with work drains at once: batches run together, no poll is waited while jobs wait', async () => {
  let running = 0
  let most = 0
  const ran: string[] = []
  const queue = createJobQueue({
    pool: database.pool,
    jobs: JOBS,
    handlers: {
      'test.record': async ({ label }) => {
        running++
        most = Math.max(most, running)
        await new Promise((resolve) => setTimeout(resolve, 20))
        running--
        ran.push(label)
      },
      'test.failing': noop,
    },
    logger: silent,
    // An idle worker would wait 30 s: a drain that takes less never waited for a poll.
    pollingIntervalSeconds: 30,
    concurrency: 2,
    batchSize: 10,
    schedules: false,
  })
  const labels = Array.from({ length: 150 }, (_, i) => `drain-${i}`)
  await database.db.transaction(async (tx) => {
    for (const label of labels) await queue.enqueue(tx, 'test.record', { label })
  })
  const began = performance.now()
  await queue.start()
  started.push(queue)
  await vi.waitFor(() => expect(ran).toHaveLength(labels.length), { timeout: 20_000, interval: 20 })
  expect(performance.now() - began).toBeLessThan(15_000)
  expect([...ran].sort()).toEqual([...labels].sort())
  // Several at once, never more than two batches of ten.
  expect(most).toBeGreaterThan(1)
  expect(most).toBeLessThanOrEqual(20)
})

test('a job claimed by a process that died is run again once its lease lapses, not after its expiry', async () => {
  const runs: JobContext[] = []
  // The process that dies: a bare pg-boss claims the job (as a worker's fetch does) and is gone.
  const { PgBoss } = await import('pg-boss')
  const doomed = new PgBoss({
    db: { executeSql: (text, values) => database.pool.query(text, values as unknown[]) },
    migrate: false,
    supervise: false,
    schedule: false,
  })
  await doomed.start()
  const enqueuer = createJobQueue({
    pool: database.pool,
    jobs: JOBS,
    handlers: { 'test.record': noop, 'test.failing': noop },
    logger: silent,
    work: false,
    schedules: false,
  })
  const id = await enqueuer.enqueue(database.db, 'test.record', { label: 'orphaned' })
  const [claimed] = await doomed.fetch('test.record')
  expect(claimed?.id).toBe(id)
  await doomed.stop({ graceful: false, close: false })
  const claim = await database.pool.query(
    'SELECT state, heartbeat_seconds, expire_seconds FROM pgboss.job WHERE id = $1',
    [id],
  )
  expect(claim.rows[0]).toEqual({ state: 'active', heartbeat_seconds: 10, expire_seconds: 30 })
  // The clock, moved on: its last lease renewal was 11 s ago (the lease is 10 s), well inside the
  // job's 30 s expiry, which alone would have brought it back. And its back-off is a minute, as a
  // forward's is: the retry pg-boss schedules would wait that long.
  await database.pool.query(
    `UPDATE pgboss.job SET heartbeat_on = heartbeat_on - interval '11 seconds', retry_delay = 60 WHERE id = $1`,
    [id],
  )

  const survivor = createJobQueue({
    pool: database.pool,
    jobs: JOBS,
    handlers: {
      'test.record': async (_payload, job) => {
        runs.push(job)
      },
      'test.failing': noop,
    },
    logger: silent,
    pollingIntervalSeconds: 0.5,
    // Looked for every second here (5 s in the app): the pickup is a second or two, not a minute.
    leaseCheckSeconds: 1,
    schedules: false,
  })
  const began = performance.now()
  await survivor.start()
  started.push(survivor)
  await vi.waitFor(() => expect(runs).toHaveLength(1), { timeout: 10_000, interval: 50 })
  const seconds = (performance.now() - began) / 1000
  // Its retry was due after the job's back-off (30 to 60 s): brought forward.
  expect(seconds).toBeLessThan(10)
  expect(runs[0]).toMatchObject({ id, attempt: 2 })
  await vi.waitFor(
    async () => expect((await jobRows('test.record')).find((row) => row.id === id)?.state).toBe('completed'),
    { timeout: 5_000, interval: 50 },
  )
})
