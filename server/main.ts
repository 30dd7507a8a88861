import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { createServer, type RequestListener, type Server } from 'node:http'
import path from 'node:path'
import { createJobQueue } from '#core/jobs/job-queue.ts'
import { type AppJobEnqueuer, JOBS } from '#core/jobs/registry.ts'
import { createOutboxMailer, createSmtpMailer } from '#core/notifications/mailer.ts'
import { createOutboxSmsSender, createTwilioSmsSender } from '#core/notifications/sms.ts'
import { paymentProvidersFromEnv } from '#core/payments/provider.ts'
import { seedDatabase } from '#core/seed/seed-database.ts'
import { createSettingsService } from '#core/settings/settings-service.ts'
import { createDiskFileStore, reportingMissingFiles } from '#core/uploads/file-store.ts'
import { createS3FileStore, s3ConfigFromEnv } from '#core/uploads/s3-file-store.ts'
import { createWhatsAppClient } from '#core/whatsapp/client.ts'
import { whatsappConfigFromEnv } from '#core/whatsapp/config.ts'
import { createDb } from '#db/client.ts'
import { runMigrations } from '#db/migrate.ts'
import type { AppDeps, createApp } from './app.ts'
import { ensureDemoAccounts } from './demo-accounts.ts'
import { DataDirInUseError, type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.ts'
import { parseEnv, shutdownDrainSeconds } from './env.ts'
import { createJobHandlers } from './jobs.ts'
import { createLogger } from './logger.ts'
import type { Services } from './services.ts'
import { listenForSettingsChanges } from './settings-listener.ts'

/**
 * The Node entry: `npm start` (production build) and `npm run dev` (Vite, hot reload).
 * Owns the process: database start-up, migrations, seed, listening and graceful shutdown.
 */
const env = parseEnvOrExit()
// Checked with the rest by parseEnv: here it is only read.
const s3Config = s3ConfigFromEnv(process.env)
const logger = createLogger(env.LOG_LEVEL)
const root = process.cwd()

let embedded: EmbeddedPostgres | null = null
try {
  embedded = env.DATABASE_URL
    ? null
    : await startEmbeddedPostgres({
        dataDir: env.DATA_DIR,
        log: (level, message) => logger[level]({ component: 'embedded-postgres' }, message),
        // Its restarts used up: exit non-zero, so a process manager starts the app (and it) anew.
        onGiveUp: (message) => {
          console.error(`\n${message}\n`)
          process.exit(1)
        },
      })
} catch (error) {
  if (error instanceof DataDirInUseError) {
    console.error(`\n${error.message}\n`)
    process.exit(1)
  }
  throw error
}
const databaseUrl = env.DATABASE_URL ?? embedded?.url ?? ''

await runMigrations(databaseUrl).catch(startupFailed)
const { db, pool } = createDb(databaseUrl, {
  max: env.DATABASE_POOL_MAX,
  onIdleError: (error) => logger.warn({ err: error }, 'idle database connection failed'),
})
const seeded = await seedDatabase(db).catch(startupFailed)
if (Object.values(seeded).some((count) => count > 0)) logger.info({ seeded }, 'seeded the database')

// The services live in the app's module graph (server/app.ts builds them); this process holds
// the current ones to feed them change notifications.
let services: Services | null = null

const contactForwarding = { accessKey: env.CONTACT_FORM_ACCESS_KEY, endpoint: env.CONTACT_FORM_ENDPOINT }
const mailer = env.SMTP_URL
  ? createSmtpMailer({ url: env.SMTP_URL, from: env.MAIL_FROM })
  : createOutboxMailer({ db })
// The job workers' own settings (the shop's name, address and e-mail in e-mails), dropped on the same notifications.
const jobSettings = createSettingsService({ db })

// One channel announces changes to prices, fees and rates alike.
const settingsListener = listenForSettingsChanges({
  databaseUrl,
  onChange: () => {
    services?.pricesChanged()
    jobSettings.invalidate()
  },
  logger,
})

// PayPal and Stripe when the environment configures them (parseEnv has checked it); none: the
// customer pays by bank transfer and an admin records it. One set for the pages and the jobs.
const paymentProviders = paymentProvidersFromEnv(process.env)
// WhatsApp updates when WHATSAPP_* configure them (checked by parseEnv); none: e-mail only, option hidden.
const whatsappConfig = whatsappConfigFromEnv(process.env)
const whatsapp = whatsappConfig ? createWhatsAppClient(whatsappConfig) : null

// Background jobs (core/jobs/): every process runs the workers; pg-boss hands each job to one.
const jobs = createJobQueue({
  pool,
  jobs: JOBS,
  handlers: createJobHandlers({
    db,
    mailer,
    contactForwarding,
    settings: jobSettings,
    appUrl: env.APP_URL,
    jobs: (): AppJobEnqueuer => jobs,
    payments: paymentProviders,
    log: (report) => logger.info({ report }, 'payments reconciled'),
    whatsapp,
  }),
  logger,
  pollingIntervalSeconds: env.JOBS_POLL_INTERVAL_SECONDS,
})
await jobs.start().catch(startupFailed)

/** Set by SIGTERM/SIGINT: readiness fails at once (see shutdown below). */
let shuttingDown = false
/** When /readyz was last asked (performance.now()): a balancer watching makes the drain longer. */
let lastReadinessCheckMs: number | null = null

const deps: AppDeps = {
  db,
  // Photos and logos: S3-compatible storage when S3_* is set (checked by parseEnv), else
  // DATA_DIR/uploads. A file asked for and not found is logged as an error (issue 33).
  files: reportingMissingFiles(
    s3Config ? createS3FileStore(s3Config) : createDiskFileStore(path.join(env.DATA_DIR, 'uploads')),
    (key) => logger.error({ component: 'files', key }, 'a stored file is missing'),
  ),
  payments: paymentProviders,
  outbox: {
    email: !env.SMTP_URL,
    sms: !(env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM),
  },
  accounts: {
    secret: env.AUTH_SECRET ?? readOrCreateSecret(path.join(env.DATA_DIR, 'auth-secret')),
    adminEmails: env.ADMIN_EMAILS,
    rateLimitFactor: env.AUTH_RATE_LIMIT_FACTOR,
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            issuer: env.GOOGLE_ISSUER,
          }
        : null,
    sms:
      env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM
        ? createTwilioSmsSender({
            accountSid: env.TWILIO_ACCOUNT_SID,
            authToken: env.TWILIO_AUTH_TOKEN,
            from: env.TWILIO_FROM,
            apiUrl: env.TWILIO_API_URL,
          })
        : createOutboxSmsSender({ db }),
  },
  contactForwarding,
  jobs,
  thirdParty: {
    reviewsWidgetId: env.REVIEWS_WIDGET_ID,
    instagramWidgetId: env.INSTAGRAM_WIDGET_ID,
    scriptUrl: env.WIDGET_SCRIPT_URL,
  },
  logger,
  checkDatabase: async () => {
    await pool.query('SELECT 1')
  },
  isShuttingDown: () => shuttingDown,
  onReadinessCheck: () => {
    lastReadinessCheckMs = performance.now()
  },
  isProduction: env.isProduction,
  appUrl: env.APP_URL,
  pageCache: { enabled: env.PAGE_CACHE, ttlSeconds: env.PAGE_CACHE_TTL_SECONDS },
  trustProxy: env.TRUST_PROXY,
  metricsToken: env.METRICS_TOKEN ?? null,
  linkPreviewStandIn: env.LINK_PREVIEW_STAND_IN,
  whatsapp,
}

const { handler, closeDev } = await (env.isProduction ? productionHandler() : developmentHandler()).catch(
  startupFailed,
)
const server = await listen(handler).catch(startupFailed)
const address = server.address()
const port = typeof address === 'object' && address ? address.port : env.PORT
const url = `http://localhost:${port}`

// Assigned when the app was created above (TypeScript cannot see that through the closure).
const started = services as Services | null
const demo = embedded && started ? await ensureDemoAccounts(started.auth, db).catch(startupFailed) : null

logger.info({ url, database: embedded ? 'embedded' : 'external' }, 'storefront listening')
if (!embedded && !s3Config && !env.UPLOADS_SHARED) {
  // An external database invites a second process; photos on this one's disk would not be seen
  // by it (issue 33: 6 of 9 photo requests through a balancer answered 404).
  logger.warn(
    { component: 'files', directory: path.resolve(env.DATA_DIR, 'uploads') },
    'photos and logos are stored on this process’s disk: run one process, set S3_* for several, or share this directory between them and set UPLOADS_SHARED=1',
  )
}
if (env.LINK_PREVIEW_STAND_IN) {
  logger.warn(
    { component: 'link-preview', standIn: env.LINK_PREVIEW_STAND_IN },
    'LINK_PREVIEW_STAND_IN is set: link previews read the test stand-in, never the shops (tests only)',
  )
}
// The banner comes last, after the last start-up log line (the logger writes synchronously), so
// the address and the demo logins are what a person sees at the bottom of the terminal.
console.log(
  `\n  Storefront running at ${url}\n  Database: ${embedded ? `embedded PostgreSQL in ${path.resolve(env.DATA_DIR, 'postgres')}` : 'DATABASE_URL'}`,
)
if (demo) {
  for (const account of demo.created) {
    console.log(
      `  Demo ${account.role === 'admin' ? 'admin' : 'customer'}: ${account.email}  password: ${account.password}  (shown once)`,
    )
  }
  for (const email of demo.existing) {
    console.log(`  Demo account: ${email} (its password was printed on the first start)`)
  }
}
console.log('')

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (shuttingDown) return
    shuttingDown = true
    void shutdown(signal)
  })
}

/**
 * Say not ready at once, keep accepting and serving for the drain period, so a balancer sees the
 * 503 enough times to mark this process down before the port closes (closing it would also reset
 * the connections still waiting to be accepted; every answer now closes its connection): 8 s when
 * /readyz was checked in the last minute, 1 s when nothing checks it, SHUTDOWN_DRAIN_SECONDS when
 * set (server/env.ts `shutdownDrainSeconds`). Then stop accepting, let in-flight requests and jobs
 * finish, and close the database. Every step is bounded: one that hangs (a database that stopped
 * answering mid-shutdown) or fails is logged by name and skipped, and the process then exits 1
 * rather than never.
 */
async function shutdown(signal: string) {
  const drainSeconds = shutdownDrainSeconds({
    configured: env.SHUTDOWN_DRAIN_SECONDS,
    lastReadinessCheckMs,
    nowMs: performance.now(),
  })
  logger.info({ signal, drainSeconds }, 'shutting down')
  const timeoutMs = env.SHUTDOWN_TIMEOUT_SECONDS * 1000
  const force = setTimeout(
    () => {
      logger.error('shutdown timed out; closing remaining connections')
      server.closeAllConnections()
    },
    drainSeconds * 1000 + timeoutMs,
  )
  force.unref()
  const closeIdle = setInterval(() => server.closeIdleConnections(), 100)
  await new Promise((resolve) => setTimeout(resolve, drainSeconds * 1000))
  await new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
  })
  clearInterval(closeIdle)
  clearTimeout(force)
  let clean = true
  const step = async (name: string, work: () => Promise<unknown>, limitMs = timeoutMs) => {
    let timer: NodeJS.Timeout | undefined
    const outcome = await Promise.race([
      work().then(
        () => 'done' as const,
        (error: unknown) => ({ error }),
      ),
      new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), limitMs)
      }),
    ])
    clearTimeout(timer)
    if (outcome === 'done') return
    clean = false
    if (outcome === 'late')
      logger.error({ step: name, limitMs }, 'shutdown step did not finish in time; going on without it')
    else logger.error({ err: outcome.error, step: name }, 'shutdown step failed; going on without it')
  }
  await step('dev server', async () => closeDev?.())
  // Background tasks may still be enqueueing (account e-mails); then the workers stop taking
  // jobs and finish theirs (one still running at the deadline is retried by another process).
  await step('background tasks', async () => services?.backgroundSettled())
  await step('job queue', () => jobs.stop({ timeoutMs }), timeoutMs + 5_000)
  await step('settings listener', () => settingsListener.close())
  // A request whose client went away is no longer a connection server.close() waits for, but its
  // handler may still be querying: let the pool go quiet before closing it.
  await untilPoolIdle(pool, timeoutMs)
  await step('database pool', () => pool.end())
  // Bounded inside: a fast shutdown, then SIGQUIT after 30 s.
  await step('embedded PostgreSQL', async () => embedded?.stop(), 40_000)
  if (clean) logger.info('stopped')
  else logger.error('stopped, with a shutdown step left unfinished (logged above)')
  process.exit(clean ? 0 : 1)
}

async function untilPoolIdle(pg: typeof pool, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  while (pg.totalCount > pg.idleCount && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function productionHandler() {
  const buildPath = path.join(root, 'build', 'server', 'index.js')
  const mod = (await import(buildPath)) as { createApp: typeof createApp }
  const created = mod.createApp({ ...deps, clientDir: path.join(root, 'build', 'client') })
  services = created.services
  return { handler: created.handler, closeDev: null }
}

/** Vite in middleware mode: every request loads the current server/app.ts, so edits apply at once. */
async function developmentHandler() {
  const [{ createServer }, { default: express }] = await Promise.all([import('vite'), import('express')])
  const vite = await createServer({ server: { middlewareMode: true } })
  const outer = express()
  outer.disable('x-powered-by')
  outer.use(vite.middlewares)
  let current: { module: unknown; app: ReturnType<typeof createApp>['app'] } | null = null
  outer.use(async (req, res, next) => {
    try {
      const mod = (await vite.ssrLoadModule('./server/app.ts')) as { createApp: typeof createApp }
      if (current?.module !== mod) {
        const created = mod.createApp(deps)
        services = created.services
        current = { module: mod, app: created.app }
      }
      current.app(req, res, next)
    } catch (error) {
      vite.ssrFixStacktrace(error as Error)
      next(error)
    }
  })
  return { handler: outer, closeDev: () => vite.close() }
}

function listen(handler: RequestListener): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler)
    server.keepAliveTimeout = 65_000
    server.once('error', reject)
    const onListening = () => {
      server.off('error', reject)
      resolve(server)
    }
    if (env.HOST) server.listen(env.PORT, env.HOST, onListening)
    else server.listen(env.PORT, onListening)
  })
}

/** Start-up failed after the database started: stop it, say why, exit non-zero. */
async function startupFailed(error: unknown): Promise<never> {
  const message =
    (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE'
      ? `Port ${env.PORT} is already in use. Stop what uses it or set PORT.`
      : 'Start-up failed.'
  logger.error({ err: error }, message)
  console.error(`\n${message}\n`)
  await embedded?.stop()
  process.exit(1)
}

/** Outside production a missing AUTH_SECRET is generated once and kept (0600) under DATA_DIR. */
function readOrCreateSecret(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim()
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  return secret
}

function parseEnvOrExit() {
  try {
    return parseEnv()
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
}
