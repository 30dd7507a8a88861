/**
 * `npm run bench:jobs`: how fast one process drains a queue of e-mails (issue 33, ADR 009).
 * On a PostgreSQL of its own (embedded, in ./data/bench-jobs; or DATABASE_URL's server, where it
 * makes and drops `bench_jobs`), migrates a new database, starts a local SMTP sink
 * (tests/support/smtp-sink.ts, in a process of its own, so its parsing is not counted against the
 * app's) and the app's real job runner (core/jobs/job-queue.ts with
 * server/jobs.ts's handlers and the SMTP mailer, the options server/main.ts gives it), then
 * enqueues BENCH_JOBS_COUNT (1,000) `email.send` jobs in one transaction and times the drain: from
 * the commit to the last message the sink received, and until no job is left waiting or running.
 * Prints e-mails per second; the goal is at least 50 (issue 33). BENCH_JOBS_SMTP_DELAY_MS holds
 * each message's final SMTP reply (0), as a remote relay would; BENCH_JOBS_WORKERS and
 * BENCH_JOBS_BATCH override the queue's fetch loops per queue and batch size (its defaults);
 * BENCH_JOBS_SMTP_QUERY is added to the SMTP URL (`?pool=true&maxConnections=10`: nodemailer keeps
 * its connections open instead of one per e-mail, as SMTP_URL can ask).
 *
 * Then a crash: a second process (this script with `--doomed <database url>`) works the queue
 * beside this one, claims the next e-mail and hangs in its SMTP send; it is killed with SIGKILL,
 * and the time until this process has sent that e-mail is printed (the goal: within 30 s).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import pg from 'pg'
import { createJobQueue } from '#core/jobs/job-queue.ts'
import { type AppJobEnqueuer, JOBS } from '#core/jobs/registry.ts'
import { createSmtpMailer } from '#core/notifications/mailer.ts'
import { seedDatabase } from '#core/seed/seed-database.ts'
import { createSettingsService } from '#core/settings/settings-service.ts'
import { createDb } from '#db/client.ts'
import { runMigrations } from '#db/migrate.ts'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '#server/embedded-postgres.ts'
import { createJobHandlers } from '#server/jobs.ts'
import { startSmtpSink } from '#tests/support/smtp-sink.ts'

const count = Number(process.env.BENCH_JOBS_COUNT ?? 1000)
const smtpDelayMs = Number(process.env.BENCH_JOBS_SMTP_DELAY_MS ?? 0)
const pollSeconds = Number(process.env.JOBS_POLL_INTERVAL_SECONDS ?? 2)
const timeoutMs = Number(process.env.BENCH_JOBS_TIMEOUT_SECONDS ?? 600) * 1000
const goalPerSecond = 50
const dataDir = './data/bench-jobs'
const databaseName = 'bench_jobs'

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

function databaseUrl(adminUrl: string, database: string) {
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  return url.toString()
}

const log = { info() {}, warn: console.warn, error: console.error }

// The sink's process: tells its port, then each message's recipients as it arrives.
if (process.argv[2] === '--sink') {
  const sink = await startSmtpSink({ replyDelayMs: smtpDelayMs })
  process.send?.({ port: sink.port })
  let told = 0
  setInterval(() => {
    for (; told < sink.received.length; told++) process.send?.({ to: sink.received[told]?.envelope.to ?? [] })
  }, 5)
  process.on('disconnect', () => process.exit(0))
  await new Promise(() => {})
}

type Received = { to: string[]; receivedAt: number }

/** The SMTP sink in a child process; what it received, timed on this process's clock. */
async function startSinkProcess() {
  const child = spawn(process.execPath, [process.argv[1] ?? 'scripts/bench-jobs.ts', '--sink'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const received: Received[] = []
  const port = await new Promise<number>((resolve) => {
    child.on('message', (message: { port?: number; to?: string[] }) => {
      if (message.port) resolve(message.port)
      if (message.to) received.push({ to: message.to, receivedAt: performance.now() })
    })
  })
  return {
    port,
    received,
    async next(to: string, timeoutMs: number): Promise<Received> {
      const deadline = performance.now() + timeoutMs
      for (;;) {
        const found = received.find((email) => email.to.includes(to))
        if (found) return found
        if (performance.now() > deadline) throw new Error(`no e-mail to ${to} within ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    },
    close: async () => {
      child.disconnect()
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

// The doomed process: works every queue, hangs in the first e-mail it sends, says so, waits to be killed.
if (process.argv[2] === '--doomed') {
  const { db, pool } = createDb(process.argv[3] ?? '', { max: 4 })
  const hang: Parameters<typeof createJobHandlers>[0]['mailer'] = {
    kind: 'smtp',
    send: () => {
      console.log('claimed')
      return new Promise(() => {})
    },
  }
  const doomed = createJobQueue({
    pool,
    jobs: JOBS,
    handlers: createJobHandlers({
      db,
      mailer: hang,
      contactForwarding: { accessKey: null, endpoint: 'http://127.0.0.1:9/submit' },
      settings: createSettingsService({ db }),
      appUrl: 'http://localhost:3000',
      jobs: (): AppJobEnqueuer => doomed,
    }),
    logger: { info() {}, warn() {}, error() {} },
    pollingIntervalSeconds: 0.5,
    schedules: false,
  })
  await doomed.start()
  console.log('started')
  await new Promise(() => {})
}

let embedded: EmbeddedPostgres | null = null
let adminUrl = process.env.DATABASE_URL ?? ''
if (!adminUrl) {
  fs.rmSync(dataDir, { recursive: true, force: true })
  embedded = await startEmbeddedPostgres({ dataDir, database: 'postgres' })
  adminUrl = embedded.adminUrl
}
const sink = await startSinkProcess()
let close: (() => Promise<void>) | null = null
try {
  await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`)
    await client.query(`CREATE DATABASE ${databaseName}`)
  })
  const url = databaseUrl(adminUrl, databaseName)
  await runMigrations(url)
  // The app's pool size (DATABASE_POOL_MAX's default): the queue adds no connections of its own.
  const { db, pool } = createDb(url, { max: 10 })
  await seedDatabase(db)
  const mailer = createSmtpMailer({
    url: `smtp://127.0.0.1:${sink.port}${process.env.BENCH_JOBS_SMTP_QUERY ?? ''}`,
    from: 'Bench <bench@localhost>',
  })
  const jobs = createJobQueue({
    pool,
    jobs: JOBS,
    handlers: createJobHandlers({
      db,
      mailer,
      contactForwarding: { accessKey: null, endpoint: 'http://127.0.0.1:9/submit' },
      settings: createSettingsService({ db }),
      appUrl: 'http://localhost:3000',
      jobs: (): AppJobEnqueuer => jobs,
    }),
    logger: log,
    pollingIntervalSeconds: pollSeconds,
    ...(process.env.BENCH_JOBS_WORKERS ? { concurrency: Number(process.env.BENCH_JOBS_WORKERS) } : {}),
    ...(process.env.BENCH_JOBS_BATCH ? { batchSize: Number(process.env.BENCH_JOBS_BATCH) } : {}),
    schedules: false,
  })
  await jobs.start()
  close = async () => {
    await jobs.stop({ timeoutMs: 5000 })
    await pool.end()
  }

  console.log(
    `Enqueueing ${count} email.send jobs (SMTP sink on port ${sink.port}, reply delay ${smtpDelayMs} ms)…`,
  )
  const enqueueStarted = performance.now()
  await db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      await jobs.enqueue(tx, 'email.send', {
        to: `customer-${i}@example.com`,
        language: i % 2 ? 'en' : 'es',
        template: 'verify-email',
        variables: { name: `Customer ${i}`, url: `http://localhost:3000/verify?token=${i}` },
      })
    }
  })
  const committed = performance.now()
  console.log(`  enqueued in ${((committed - enqueueStarted) / 1000).toFixed(2)} s`)

  let firstAt: number | null = null
  for (;;) {
    if (sink.received.length > 0 && firstAt === null) firstAt = sink.received[0]?.receivedAt ?? null
    if (sink.received.length >= count) break
    if (performance.now() - committed > timeoutMs)
      throw new Error(`only ${sink.received.length} of ${count} e-mails in ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const lastAt = sink.received.reduce((latest, email) => Math.max(latest, email.receivedAt), 0)
  // Every job settled (completed) in the queue, not only the e-mail out.
  for (;;) {
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'email.send' AND state IN ('created', 'retry', 'active')`,
    )
    if (rows[0].n === 0) break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const drained = performance.now()
  const recipients = new Set(sink.received.map((email) => email.to.join(','))).size

  const seconds = (lastAt - committed) / 1000
  const perSecond = count / seconds
  console.log('')
  console.log(`  e-mails received:       ${sink.received.length} (${recipients} distinct recipients)`)
  console.log(`  first e-mail after:     ${(((firstAt ?? lastAt) - committed) / 1000).toFixed(2)} s`)
  console.log(`  last e-mail after:      ${seconds.toFixed(2)} s`)
  console.log(`  queue drained after:    ${((drained - committed) / 1000).toFixed(2)} s`)
  console.log(`  e-mails per second:     ${perSecond.toFixed(1)} (goal ≥ ${goalPerSecond} per process)`)

  // The crash: this process's workers stop taking jobs while the doomed one claims the next.
  await jobs.stop({ timeoutMs: 5000 })
  const child = spawn(process.execPath, [process.argv[1] ?? 'scripts/bench-jobs.ts', '--doomed', url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let said = ''
  const heard = (word: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (said.includes(word)) resolve()
        else setTimeout(check, 10)
      }
      check()
    })
  child.stdout?.on('data', (chunk: Buffer) => {
    said += chunk.toString()
  })
  await heard('started')
  await jobs.enqueue(db, 'email.send', {
    to: 'crashed@example.com',
    language: 'en',
    template: 'verify-email',
    variables: { name: 'Crashed', url: 'http://localhost:3000/verify?token=crashed' },
  })
  await heard('claimed')
  child.kill('SIGKILL')
  const killedAt = performance.now()
  await new Promise((resolve) => child.once('exit', resolve))
  // This process works the queues again (a restarted or a surviving process: the same thing).
  const survivor = createJobQueue({
    pool,
    jobs: JOBS,
    handlers: createJobHandlers({
      db,
      mailer,
      contactForwarding: { accessKey: null, endpoint: 'http://127.0.0.1:9/submit' },
      settings: createSettingsService({ db }),
      appUrl: 'http://localhost:3000',
      jobs: (): AppJobEnqueuer => survivor,
    }),
    logger: log,
    pollingIntervalSeconds: pollSeconds,
    schedules: false,
  })
  await survivor.start()
  close = async () => {
    await survivor.stop({ timeoutMs: 5000 })
    await pool.end()
  }
  const resent = await sink.next('crashed@example.com', 300_000)
  console.log(
    `  crashed job re-run after: ${((resent.receivedAt - killedAt) / 1000).toFixed(1)} s (process killed with SIGKILL mid-send; goal ≤ 30 s)`,
  )
} finally {
  await close?.()
  await sink.close()
  if (process.env.DATABASE_URL) {
    await withClient(adminUrl, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`)
    })
  }
  await embedded?.stop()
}
