/**
 * `npm run bench:timing`: do sign-up, sign-in and forgot-password take as long for a registered
 * address as for an unknown one? (An attacker timing them could otherwise list customers.)
 * Starts the production build on a new embedded database (./data/bench-timing) with verified
 * accounts written into it, then sends pairs of requests, one for a registered and one for an
 * unknown address, back to back and alternating which goes first, so a burst of load on the
 * machine falls on both. Prints, per flow, the median and p95 of each kind side by side and of
 * the pairs' differences (registered minus unknown). Sign-up and reset are held to a floor
 * (core/accounts/answer-time-floor.ts); sign-in hashes the password either way.
 * The tests assert the mechanisms (tests/system/account-security.test.ts,
 * core/accounts/sign-in-password-work.db.test.ts); this measures what they give.
 * BENCH_TIMING_SAMPLES (default 30) pairs per flow after 3 unmeasured ones. The auth rate limits
 * are lifted for the run (AUTH_RATE_LIMIT_FACTOR), as every request comes from one address.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import pg from 'pg'
import { runningEmbeddedUrl } from '../server/embedded-postgres.ts'
import { insertPasswordAccount } from '../tests/support/accounts.ts'
import { startProductionServer } from './lib/production-server.ts'

const samples = Number(process.env.BENCH_TIMING_SAMPLES ?? 30)
const warmUp = 3
const port = Number(process.env.BENCH_PORT ?? 4324)
const base = `http://127.0.0.1:${port}`
const dataDir = './data/bench-timing'
const password = 'correct horse battery'

if (!fs.existsSync('build/server/index.js')) {
  console.error('Run `npm run build` first (npm run bench:timing does it for you).')
  process.exit(1)
}
fs.rmSync(dataDir, { recursive: true, force: true })
const server = await startProductionServer({
  port,
  dataDir,
  // Unknown addresses make better-auth warn on every request.
  env: { APP_URL: base, AUTH_RATE_LIMIT_FACTOR: '1000', LOG_LEVEL: 'error' },
})

/** Milliseconds from sending to the end of the answer's body. */
async function timed(path: string, body: unknown): Promise<{ ms: number; status: number }> {
  const started = performance.now()
  const response = await fetch(`${base}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(body),
  })
  await response.arrayBuffer()
  return { ms: performance.now() - started, status: response.status }
}

function quantile(values: number[], q: number) {
  const sorted = [...values].sort((a, b) => a - b)
  const position = (sorted.length - 1) * q
  const low = Math.floor(position)
  const high = Math.ceil(position)
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low)
}

type Flow = { name: string; path: string; body: (email: string) => unknown }

const pool = new pg.Pool({ connectionString: runningEmbeddedUrl(dataDir), max: 2 })
try {
  const total = samples + warmUp
  const registered = Array.from({ length: total }, (_, index) => `registered-${index}@example.com`)
  for (const email of registered) await insertPasswordAccount(pool, { email, password })
  const run = randomUUID().slice(0, 8)

  const flows: Flow[] = [
    {
      name: 'sign-up',
      path: '/sign-up/email',
      body: (email) => ({ name: 'Same Name', email, password, callbackURL: '/auth?verified=true' }),
    },
    {
      name: 'sign-in (wrong password)',
      path: '/sign-in/email',
      body: (email) => ({ email, password: 'wrong one' }),
    },
    {
      name: 'forgot-password',
      path: '/request-password-reset',
      body: (email) => ({ email, redirectTo: '/auth/reset-password' }),
    },
  ]
  const rows = []
  for (const flow of flows) {
    const times = { registered: [] as number[], unknown: [] as number[], differences: [] as number[] }
    const statuses = new Set<string>()
    for (let index = 0; index < total; index++) {
      const pair = { registered: 0, unknown: 0 }
      const order = index % 2 ? (['unknown', 'registered'] as const) : (['registered', 'unknown'] as const)
      for (const kind of order) {
        const email =
          kind === 'registered'
            ? (registered[index] ?? '')
            : `unknown-${flow.name.slice(0, 7)}-${run}-${index}@example.com`
        const answer = await timed(flow.path, flow.body(email))
        pair[kind] = answer.ms
        statuses.add(`${kind} ${answer.status}`)
      }
      if (index < warmUp) continue
      times.registered.push(pair.registered)
      times.unknown.push(pair.unknown)
      times.differences.push(pair.registered - pair.unknown)
    }
    rows.push({ flow: flow.name, statuses: [...statuses].sort().join(', '), ...times })
  }

  const cell = (value: number) => value.toFixed(1).padStart(9)
  console.log(
    `\nAnswer times, registered vs unknown address: ${samples} pairs per flow, loopback, ${new Date().toISOString()}\n`,
  )
  console.log(
    'flow'.padEnd(26),
    'registered p50'.padStart(15),
    'p95'.padStart(9),
    'unknown p50'.padStart(12),
    'p95'.padStart(9),
    'diff p50'.padStart(9),
    'p95 |diff|'.padStart(11),
  )
  for (const row of rows) {
    console.log(
      row.flow.padEnd(26),
      cell(quantile(row.registered, 0.5)).padStart(15),
      cell(quantile(row.registered, 0.95)),
      cell(quantile(row.unknown, 0.5)).padStart(12),
      cell(quantile(row.unknown, 0.95)),
      cell(quantile(row.differences, 0.5)),
      cell(quantile(row.differences.map(Math.abs), 0.95)).padStart(11),
    )
  }
  console.log('\nms; diff = registered minus unknown within a pair. Statuses seen:')
  for (const row of rows) console.log(`  ${row.flow}: ${row.statuses}`)
} finally {
  await pool.end()
  await server.stop()
}
