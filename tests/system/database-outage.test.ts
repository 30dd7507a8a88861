import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterAll, expect, test } from 'vitest'
import { createDb } from '#db/client.ts'
import { contactMessages } from '#db/schema/index.ts'
import { runningEmbeddedUrl } from '#server/embedded-postgres.ts'
import { createTestDatabase, onFileCleanup } from '#tests/db.ts'
import { startFormService } from '#tests/support/form-service.ts'
import { startTestJobQueue } from '#tests/support/jobs.ts'
import { startTcpProxy } from '#tests/support/tcp-proxy.ts'
import { freePort, type ServerProcess, startServer } from './server-process.ts'

// The database goes away under load and comes back (docs/decisions/015-database-outage.md): on
// the embedded PostgreSQL its postmaster is killed and the app's supervisor restarts it; on any
// database, a TCP proxy between the app and PostgreSQL cuts every connection and refuses new
// ones for a while. Either way: never a 500, 503 with Retry-After while it lasts, 200 again within
// 15 s without restarting the app, no acknowledged write lost, a job enqueued before runs once.
// Bounded load on loopback: a few readers and one writer, each pausing between requests.

const RECOVERY_LIMIT_MS = 15_000
const NOT_SAVED = 'nothing was saved'
const CHECK = 'may or may not have been saved'

let formService: Awaited<ReturnType<typeof startFormService>> | undefined
afterAll(async () => {
  await formService?.close()
})

function newDataDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-outage-'))
}

/** The server is stopped (and its PostgreSQL with it) before its data directory goes. */
function cleanUp(server: ServerProcess, dataDir: string, more?: () => Promise<void>) {
  onFileCleanup(async () => {
    await server.stop()
    await more?.()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
}

type Sample = { at: number; path: string; status: number; retryAfter: string | null; body: string }
type Write = { name: string; at: number; status: number; body: string }

/** Readers and one contact-form writer running until stopped; every answer is kept. */
function load(url: string) {
  const samples: Sample[] = []
  const writes: Write[] = []
  let running = true
  const get = async (pathname: string) => {
    const at = Date.now()
    try {
      const response = await fetch(`${url}${pathname}`, {
        headers: { cookie: 'lang=en' },
        signal: AbortSignal.timeout(10_000),
      })
      const body = await response.text()
      samples.push({
        at,
        path: pathname,
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body,
      })
    } catch (error) {
      samples.push({ at, path: pathname, status: 0, retryAfter: null, body: String(error) })
    }
  }
  const reader = async (pathname: string, pauseMs: number) => {
    while (running) {
      await get(pathname)
      await sleep(pauseMs)
    }
  }
  let written = 0
  const writer = async () => {
    while (running) {
      const index = written++
      const name = `Outage ${index}`
      const at = Date.now()
      try {
        const response = await fetch(`${url}/contact`, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            cookie: 'lang=en',
            // One address per message: the contact form's per-address limit stays out of the way.
            'x-forwarded-for': `10.9.${index >> 8}.${index & 255}`,
          },
          body: new URLSearchParams({
            name,
            email: 'outage@example.com',
            subject: 'order',
            message: 'Hola, ¿llegó mi paquete?',
          }),
          signal: AbortSignal.timeout(10_000),
        })
        writes.push({ name, at, status: response.status, body: await response.text() })
      } catch (error) {
        writes.push({ name, at, status: 0, body: String(error) })
      }
      await sleep(150)
    }
  }
  let signIns = 0
  // The auth API (better-auth): a sign-in with a wrong password is 401, or 503 while the database is away.
  const signIn = async () => {
    while (running) {
      const index = signIns++
      const at = Date.now()
      try {
        const response = await fetch(`${url}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `10.8.${index >> 8}.${index & 255}`,
          },
          body: JSON.stringify({ email: `nobody-${index}@example.com`, password: 'not the password' }),
          signal: AbortSignal.timeout(10_000),
        })
        samples.push({
          at,
          path: '/api/auth/sign-in/email',
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.text(),
        })
      } catch (error) {
        samples.push({
          at,
          path: '/api/auth/sign-in/email',
          status: 0,
          retryAfter: null,
          body: String(error),
        })
      }
      await sleep(200)
    }
  }
  const workers = [
    signIn(),
    reader('/store-guide', 40),
    reader('/store-guide', 40),
    reader('/contact', 60),
    reader('/readyz', 100),
    reader('/healthz', 100),
    writer(),
  ]
  return {
    samples,
    writes,
    async stop() {
      running = false
      await Promise.all(workers)
    },
  }
}

/** Polls a page until it has answered other than 200 and then 200 again; returns when. */
async function waitForOk(url: string, since: number, sawOutage = false): Promise<number> {
  for (;;) {
    const response = await fetch(`${url}/store-guide`, {
      headers: { cookie: 'lang=en' },
      signal: AbortSignal.timeout(5_000),
    }).catch(() => null)
    if (response?.status !== 200) sawOutage = true
    else if (sawOutage) return Date.now()
    if (Date.now() - since > RECOVERY_LIMIT_MS + 5_000) throw new Error('no 200 within the limit')
    await sleep(100)
  }
}

/** A contact message stored and its forward enqueued to run a moment later, as a service does. */
async function enqueueDelayedForward(databaseUrl: string, name: string) {
  const { db, pool } = createDb(databaseUrl, { max: 2 })
  const queue = await startTestJobQueue(pool)
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(contactMessages)
        .values({
          name,
          email: 'job@example.com',
          subject: 'order',
          message: 'Enqueued before the outage',
          language: 'en',
          forwardStatus: 'pending',
        })
        .returning({ id: contactMessages.id })
      if (!row) throw new Error('no row')
      await queue.enqueue(
        tx,
        'contact.forward',
        { messageId: row.id },
        { startAfter: new Date(Date.now() + 1_500) },
      )
    })
  } finally {
    await queue.stop({ timeoutMs: 5_000 })
    await pool.end()
  }
}

/** Runs the load, causes the outage, waits for recovery, and checks everything the issue asks. */
async function outageUnderLoad(options: {
  server: ServerProcess
  formService: Awaited<ReturnType<typeof startFormService>>
  /** The name of the contact message whose forward is enqueued just before the outage. */
  queuedName: string
  databaseUrl: () => string
  breakDatabase: () => Promise<void>
  /** For the proxy: put the connections back after a while. */
  repairDatabase?: () => Promise<void>
}) {
  const { server } = options
  // Warm: the pages render and the page cache is off, so every read reaches the database.
  expect((await fetch(`${server.url}/store-guide`)).status).toBe(200)

  const traffic = load(server.url)
  await sleep(1_000)
  // Due 1.5 s from now: the database goes away first.
  await enqueueDelayedForward(options.databaseUrl(), options.queuedName)
  const brokenAt = Date.now()
  await options.breakDatabase()
  let repairedAt = brokenAt
  if (options.repairDatabase) {
    await sleep(3_000)
    await options.repairDatabase()
    repairedAt = Date.now()
  }
  const recoveredAt = await waitForOk(server.url, brokenAt, options.repairDatabase !== undefined)
  // Keep the load on a little longer: the site must stay up once back.
  await sleep(2_000)
  const settledAt = Date.now()
  await traffic.stop()

  const { samples, writes } = traffic
  const api = samples.filter((sample) => sample.path.startsWith('/api/'))
  const pages = samples.filter(
    (sample) => sample.path !== '/readyz' && sample.path !== '/healthz' && !sample.path.startsWith('/api/'),
  )
  const statuses = (list: { status: number }[]) => [...new Set(list.map((item) => item.status))].sort()

  // Never a 500 (nor a dropped connection): pages 200 or 503, writes 302 or 503.
  expect(statuses(pages).filter((status) => status !== 200 && status !== 503)).toEqual([])
  expect(statuses(writes).filter((status) => status !== 302 && status !== 503)).toEqual([])
  // The outage was seen, each 503 says when to come back, and the page is the translated one.
  const unavailable = pages.filter((sample) => sample.status === 503)
  expect(unavailable.length).toBeGreaterThan(0)
  expect(unavailable.filter((sample) => sample.retryAfter !== '5')).toEqual([])
  expect(unavailable[0]?.body).toContain('The site is temporarily unavailable. Please try again in a moment.')
  expect(unavailable[0]?.body).not.toContain('Unexpected Application Error')
  // The JSON API: 401 (wrong password) or a JSON 503 with Retry-After, never a 500.
  expect(statuses(api).filter((status) => status !== 401 && status !== 503)).toEqual([])
  for (const sample of api.filter((item) => item.status === 503)) {
    expect(sample.retryAfter).toBe('5')
    // better-auth's own shape from its endpoints, ours (`{ error: { code } }`) when its rate
    // limiter fails before an endpoint runs.
    const body = JSON.parse(sample.body) as { code?: string; error?: { code?: string } }
    expect(
      body.error?.code === 'unavailable' || /^DATABASE_UNAVAILABLE/.test(body.code ?? ''),
      sample.body,
    ).toBe(true)
  }
  // Load balancers: not ready during the outage, alive throughout.
  expect(
    samples.filter((sample) => sample.path === '/readyz' && sample.status === 503).length,
  ).toBeGreaterThan(0)
  expect(statuses(samples.filter((sample) => sample.path === '/healthz'))).toEqual([200])
  // Back by itself, within the limit, and it stays back.
  expect(recoveredAt - brokenAt).toBeLessThan(RECOVERY_LIMIT_MS + (repairedAt - brokenAt))
  expect(pages.filter((sample) => sample.at > recoveredAt + 500 && sample.status !== 200)).toEqual([])
  expect(settledAt).toBeGreaterThan(recoveredAt)

  // Every acknowledged write is there; a write answered "nothing was saved" is not; a write
  // answered 503 says one of the two.
  const pool = new pg.Pool({ connectionString: options.databaseUrl(), max: 2 })
  try {
    const stored = new Set(
      (
        await pool.query<{ name: string }>(`SELECT name FROM contact_messages WHERE name LIKE 'Outage %'`)
      ).rows.map((row) => row.name),
    )
    const acknowledged = writes.filter((write) => write.status === 302)
    expect(acknowledged.length).toBeGreaterThan(0)
    expect(acknowledged.filter((write) => !stored.has(write.name))).toEqual([])
    const refused = writes.filter((write) => write.status === 503)
    expect(refused.filter((write) => !write.body.includes(NOT_SAVED) && !write.body.includes(CHECK))).toEqual(
      [],
    )
    expect(refused.filter((write) => write.body.includes(NOT_SAVED) && stored.has(write.name))).toEqual([])
    // The form keeps what the visitor typed.
    for (const write of refused) expect(write.body).toContain(write.name)

    // The job enqueued before the outage ran after it, once.
    const deadline = Date.now() + 20_000
    for (;;) {
      const { rows } = await pool.query<{ forward_status: string; forwarded_at: Date | null }>(
        'SELECT forward_status, forwarded_at FROM contact_messages WHERE name = $1',
        [options.queuedName],
      )
      if (rows[0]?.forward_status === 'sent') {
        expect(rows[0].forwarded_at?.getTime()).toBeGreaterThan(brokenAt)
        break
      }
      if (Date.now() > deadline) throw new Error(`the queued forward did not run: ${JSON.stringify(rows)}`)
      await sleep(200)
    }
    expect(options.formService.received.filter((body) => body.name === options.queuedName)).toHaveLength(1)
  } finally {
    await pool.end()
  }
  const timings = {
    outageMs: recoveredAt - brokenAt,
    afterRepairMs: recoveredAt - repairedAt,
    pages: pages.length,
    unavailable: unavailable.length,
    writes: writes.length,
    acknowledged: writes.filter((write) => write.status === 302).length,
  }
  console.log(`database outage: ${JSON.stringify(timings)}`)
  return timings
}

/** A test database reached through a TCP proxy on loopback, which the test can cut or stall. */
async function databaseBehindProxy() {
  const database = await createTestDatabase()
  const target = new URL(database.url)
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const proxied = new URL(database.url)
  proxied.hostname = '127.0.0.1'
  proxied.port = String(proxy.port)
  return { database, proxy, proxiedUrl: proxied.toString() }
}

/** SIGTERM, and exit 0; otherwise the shutdown's log lines say which step did not finish. */
async function expectCleanStop(server: ServerProcess) {
  const code = await server.stop()
  const shutdown = server.logs().filter((line) => /shut|stop/.test(String(line.msg)))
  expect(code, JSON.stringify(shutdown, null, 1)).toBe(0)
}

/** A failure with the server's last log lines, which say what it was doing. */
function withOutput(server: ServerProcess) {
  return (error: Error): never => {
    const lines = server.output().split('\n')
    // Errors and 5xx answers first (they may be long before the end), then the last lines.
    // (better-auth logs its own errors as text: `ERROR [Better Auth]: …`.)
    const errors = lines
      .filter((line) => /"level":(50|60)|"statusCode":5\d\d|\bERROR\b/.test(line))
      .slice(0, 20)
    error.message += `\n--- server errors and 5xx (first 20) ---\n${errors.join('\n')}`
    error.message += `\n--- server output (last lines) ---\n${lines.slice(-40).join('\n')}`
    throw error
  }
}

test('embedded: the postmaster is killed under load; the app restarts it and serves again', async () => {
  formService ??= await startFormService()
  const forms = formService
  const dataDir = newDataDir()
  const port = await freePort()
  const server = await startServer({
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    PAGE_CACHE: 'false',
    TRUST_PROXY: '1',
    CONTACT_FORM_ACCESS_KEY: 'outage-test-key',
    CONTACT_FORM_ENDPOINT: forms.url,
  })
  cleanUp(server, dataDir)
  const postmasterPid = () =>
    Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0])
  const killed = postmasterPid()

  await outageUnderLoad({
    server,
    formService: forms,
    queuedName: 'Queued Before Kill',
    databaseUrl: () => runningEmbeddedUrl(dataDir),
    // As the out-of-memory killer would.
    breakDatabase: async () => {
      process.kill(killed, 'SIGKILL')
    },
  }).catch(withOutput(server))

  expect(server.child.exitCode).toBeNull()
  expect(postmasterPid()).not.toBe(killed)
  expect(server.output()).toContain('exited unexpectedly (SIGKILL); restarting it')
  expect(server.output()).toMatch(/PostgreSQL restarted on 127\.0\.0\.1:\d+ \(pid \d+, attempt 1\/5\)/)
  await expectCleanStop(server)
  // Bounded: the recovery itself is asserted inside; a busy machine only makes the load slower
  // (a CI run on two busy cores once took over 180 s here: initdb, the load, crash recovery).
}, 300_000)

test('embedded: when PostgreSQL cannot be restarted the app says why and exits 1', async () => {
  const dataDir = newDataDir()
  const server = await startServer({ DATABASE_URL: '', DATA_DIR: dataDir, PAGE_CACHE: 'false' })
  cleanUp(server, dataDir)
  const clusterDir = path.join(dataDir, 'postgres')
  const pid = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0])
  // A cluster PostgreSQL refuses to start from: every restart fails.
  fs.renameSync(path.join(clusterDir, 'PG_VERSION'), path.join(clusterDir, 'PG_VERSION.moved'))
  process.kill(pid, 'SIGKILL')

  expect(await server.exited).toBe(1)
  const output = server.output()
  for (let attempt = 1; attempt <= 5; attempt++)
    expect(output).toContain(`Restarting PostgreSQL, attempt ${attempt}/5`)
  expect(output).toContain(
    'could not be restarted after 5 attempts; exiting so that a process manager restarts the app',
  )
  expect(fs.existsSync(path.join(dataDir, 'storefront.lock'))).toBe(false)
}, 60_000)

test('any database: connections cut and refused by a proxy for 3 s; the pool and the queue recover', async () => {
  formService ??= await startFormService()
  const forms = formService
  const { database, proxy, proxiedUrl } = await databaseBehindProxy()
  const dataDir = newDataDir()
  const port = await freePort()
  const server = await startServer({
    DATABASE_URL: proxiedUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    PAGE_CACHE: 'false',
    TRUST_PROXY: '1',
    CONTACT_FORM_ACCESS_KEY: 'outage-test-key',
    CONTACT_FORM_ENDPOINT: forms.url,
  })
  cleanUp(server, dataDir, () => proxy.close())

  await outageUnderLoad({
    server,
    formService: forms,
    queuedName: 'Queued Before Cut',
    databaseUrl: () => database.url,
    breakDatabase: () => proxy.cut(),
    repairDatabase: () => proxy.restore(),
  }).catch(withOutput(server))

  expect(server.child.exitCode).toBeNull()
  await expectCleanStop(server)
  // Bounded: the recovery itself is asserted inside; a busy machine only makes the load slower
  // (a CI run on two busy cores once took over 180 s here: initdb, the load, crash recovery).
}, 300_000)

test('any database: anonymous pages in the page cache are served during an outage, even past their TTL', async () => {
  const { proxy, proxiedUrl } = await databaseBehindProxy()
  const dataDir = newDataDir()
  const server = await startServer({
    DATABASE_URL: proxiedUrl,
    DATA_DIR: dataDir,
    PAGE_CACHE: 'true',
    PAGE_CACHE_TTL_SECONDS: '1',
  })
  cleanUp(server, dataDir, () => proxy.close())
  const get = (pathname: string) => fetch(`${server.url}${pathname}`, { headers: { cookie: 'lang=en' } })

  const first = await get('/store-guide')
  expect([first.status, first.headers.get('x-page-cache')]).toEqual([200, 'MISS'])
  await proxy.cut()
  await sleep(1_200)
  try {
    const stale = await get('/store-guide')
    expect([stale.status, stale.headers.get('x-page-cache')]).toEqual([200, 'STALE'])
    expect(await stale.text()).toContain('</html>')
    // Never rendered before: nothing to fall back on.
    const uncached = await get('/store-guide?page=never-cached')
    expect(uncached.status).toBe(503)
    expect(uncached.headers.get('retry-after')).toBe('5')
  } finally {
    await proxy.restore()
  }
  const again = await waitForOk(server.url, Date.now(), true)
  expect(again).toBeGreaterThan(0)
  expect((await get('/store-guide')).headers.get('x-page-cache')).toMatch(/^(MISS|HIT)$/)
  // Bounded: the recovery itself is asserted inside; a busy machine only makes the load slower
  // (a CI run on two busy cores once took over 180 s here: initdb, the load, crash recovery).
}, 300_000)

test('any database: the database stops answering during a shutdown; each step gives up in time and the app exits 1 naming it', async () => {
  const { proxy, proxiedUrl } = await databaseBehindProxy()
  const dataDir = newDataDir()
  const server = await startServer({
    DATABASE_URL: proxiedUrl,
    DATA_DIR: dataDir,
    PAGE_CACHE: 'false',
    SHUTDOWN_DRAIN_SECONDS: '0',
    SHUTDOWN_TIMEOUT_SECONDS: '2',
  })
  cleanUp(server, dataDir, () => proxy.close())
  // Connections open: the pool's, the job queue's, the settings listener's.
  expect((await fetch(`${server.url}/store-guide`)).status).toBe(200)

  // Packets dropped, nothing closed: closing a connection waits for an answer that never comes.
  proxy.stall()
  server.child.kill('SIGTERM')

  expect(await server.exited).toBe(1)
  const unfinished = server
    .logs()
    .filter((line) => line.msg === 'shutdown step did not finish in time; going on without it')
  expect(unfinished.length, server.output()).toBeGreaterThan(0)
  expect(unfinished.map((line) => line.step)).toContain('settings listener')
  expect(server.output()).toContain('stopped, with a shutdown step left unfinished')
}, 120_000)
