/**
 * `npm run bench:admin`: the admin panel's user list and analytics at shop scale
 * (docs/decisions/024-admin-users.md, 025-admin-analytics.md). On a PostgreSQL of its own
 * (embedded, in ./data/bench-admin; or DATABASE_URL's server, where it makes `bench_admin`),
 * migrates a new database and seeds BENCH_ADMIN_USERS (100,000) customers with
 * BENCH_ADMIN_REQUESTS (100,000) purchase requests (the orders benchmark's seed,
 * scripts/lib/orders-seed.ts) and a quote for every quoted request (paid where the request was),
 * and the warehouse benchmark's 50,000 items at the office (scripts/lib/warehouse-seed.ts),
 * then times each scenario two ways: the service the page calls (in this process), and the page
 * through the production server as its own request log measures it. BENCH_ADMIN_ITERATIONS (100)
 * timed calls each after 10 unmeasured; p50/p95/max in ms; PASS when both are under the goal at
 * p95 (user searches 50 ms, a year of analytics 200 ms).
 */

import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import pg from 'pg'
import { getAnalytics } from '#core/analytics/analytics.ts'
import { parsePeriod } from '#core/analytics/period.ts'
import { seedDatabase } from '#core/seed/seed-database.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { listUsers } from '#core/users/user-admin.ts'
import { createDb } from '#db/client.ts'
import { runMigrations } from '#db/migrate.ts'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '#server/embedded-postgres.ts'
import { insertSession, SESSION_COOKIE, signedSessionCookie } from '#tests/support/accounts.ts'
import { seedOrders } from './lib/orders-seed.ts'
import { startProductionServer } from './lib/production-server.ts'
import { seedWarehouse } from './lib/warehouse-seed.ts'

const iterations = Number(process.env.BENCH_ADMIN_ITERATIONS ?? 100)
const warmUp = 10
const customers = Number(process.env.BENCH_ADMIN_USERS ?? 100_000)
const requests = Number(process.env.BENCH_ADMIN_REQUESTS ?? 100_000)
const port = Number(process.env.BENCH_PORT ?? 4328)
const base = `http://127.0.0.1:${port}`
const dataDir = './data/bench-admin'
const secret = randomBytes(32).toString('hex')
const admin: Actor = { id: 'bench-admin', role: 'admin' }

if (!fs.existsSync('build/server/index.js')) {
  console.error('Run `npm run build` first (npm run bench:admin does it for you).')
  process.exit(1)
}

const quantile = (sorted: readonly number[], q: number) => {
  const position = (sorted.length - 1) * q
  const low = Math.floor(position)
  const high = Math.ceil(position)
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low)
}

let embedded: EmbeddedPostgres | null = null
let adminUrl = process.env.DATABASE_URL ?? ''
if (!adminUrl) {
  fs.rmSync(dataDir, { recursive: true, force: true })
  embedded = await startEmbeddedPostgres({ dataDir, database: 'postgres' })
  adminUrl = embedded.adminUrl
}
const serverUrl = new URL(adminUrl)
const url = new URL(adminUrl)
url.pathname = '/bench_admin'
{
  const client = new pg.Client({ connectionString: serverUrl.toString() })
  await client.connect()
  await client.query('DROP DATABASE IF EXISTS bench_admin WITH (FORCE)')
  await client.query('CREATE DATABASE bench_admin')
  await client.end()
}
await runMigrations(url.toString())
const { db, pool } = createDb(url.toString(), { max: 10 })
await seedDatabase(db)
await pool.query(
  `INSERT INTO users (id, name, email, email_verified, role, language, created_at, updated_at)
   VALUES ($1, 'Bench Admin', 'bench-admin@example.com', true, 'admin', 'es', now(), now())`,
  [admin.id],
)
const seedStarted = performance.now()
const seeded = await seedOrders(pool, { customers, requests, staffId: admin.id })
// A quote for every request that got one, paid where the request was: what analytics sums.
await pool.query(`
  INSERT INTO invoices (number, year, sequence, request_id, user_id, locale, recipient, issuer,
    tax_rate_basis_points, service_fee_unit_jpy, yen_rates, items_jpy, domestic_shipping_jpy,
    service_fee_jpy, taxable_jpy, tax_jpy, total_jpy, issued_at, due_at, status, paid_at)
  SELECT extract(year FROM quoted_at)::int || '-' || lpad(seq::text, 6, '0'), extract(year FROM quoted_at)::int, seq,
         id, user_id, locale, '{"name":"Bench","email":"bench@example.com"}', '{"name":"Bench","address":"Osaka","email":"a@example.com","taxRegistrationId":"T0000000000000"}',
         1000, 500, '{"USD":0.0068,"MXN":0.13,"CLP":6.54}', items, ship, 500, items + 500,
         (items + 500) / 10, items + ship + 500 + (items + 500) / 10, quoted_at, quoted_at + interval '7 days',
         CASE WHEN paid_at IS NOT NULL THEN 'paid' WHEN status = 'expired' THEN 'expired' WHEN status = 'quoted' THEN 'open' ELSE 'void' END,
         paid_at
    FROM (SELECT r.*, row_number() OVER (PARTITION BY extract(year FROM quoted_at) ORDER BY quoted_at, id) AS seq,
                 1000 + (abs(hashtext(r.id::text)) % 30000) AS items, (abs(hashtext(r.number)) % 9) * 100 AS ship
            FROM purchase_requests r WHERE quoted_at IS NOT NULL) AS quoted`)
// The warehouse (analytics' part 2: items at the office, shipments): 50,000 items stored.
const stored = await seedWarehouse(pool)
await pool.query('VACUUM ANALYZE')
const { rows: counts } = await pool.query<{ users: number; invoices: number }>(
  `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM invoices) AS invoices`,
)
console.log(
  `Seeded ${counts[0]?.users} users, ${seeded.requests} requests, ${counts[0]?.invoices} quotes, ${stored.stored} items at the office in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
)

// Names and e-mails that exist in the seed, to search for.
const { rows: sample } = await pool.query<{ name: string; email: string }>(
  `SELECT name, email FROM users WHERE name ~ '[áéíóúñ]' ORDER BY id LIMIT 1`,
)
const accented = sample[0]?.name ?? 'José Pérez'
const plain = accented
  .normalize('NFD')
  .replace(/[\u0300-\u036f]/g, '')
  .toLowerCase()
const emailPart = (sample[0]?.email ?? 'jose.perez1@example.com').split('@')[0] ?? 'jose'
const year = new Date().getFullYear()
const yearPeriod = { preset: 'custom', from: `${year - 1}-01-01`, to: `${year - 1}-12-31` }

type Scenario = { name: string; goal: number; service: () => Promise<number>; page: string }
const params = (query: Record<string, string>) => new URLSearchParams(query).toString()
const scenarios: Scenario[] = [
  ...(
    [
      ['users: newest, page 1', {}],
      ['users: by name, page 1', { sort: 'name' }],
      ['users: moderators', { role: 'moderator' }],
      [`users: name without accents "${plain}"`, { q: plain }],
      [
        `users: part of a name "${plain.split(' ')[0]?.slice(0, 4)}"`,
        { q: plain.split(' ')[0]?.slice(0, 4) ?? 'jose' },
      ],
      [`users: part of an e-mail "${emailPart}"`, { q: emailPart }],
      ['users: e-mail domain "gmail"', { q: 'gmail' }],
      ['users: no match "zzqx"', { q: 'zzqx' }],
    ] as [string, Record<string, string>][]
  ).map(
    ([name, query]): Scenario => ({
      name,
      goal: 50,
      service: async () => (await listUsers({ db, actor: admin }, query)).rows.length,
      page: `/admin-dashboard/users?${params(query)}`,
    }),
  ),
  ...(
    [
      ['analytics: this month', { preset: 'this_month' }],
      ['analytics: last 30 days', { preset: 'last_30_days' }],
      [`analytics: the year ${year - 1}`, yearPeriod],
    ] as [string, Record<string, string>][]
  ).map(
    ([name, query]): Scenario => ({
      name,
      goal: 200,
      service: async () => (await getAnalytics({ db, actor: admin }, parsePeriod(query))).requestsReceived,
      page: `/admin-dashboard/analytics?${params(query)}`,
    }),
  ),
]

const server = await startProductionServer({
  port,
  dataDir,
  env: { APP_URL: base, AUTH_SECRET: secret, DATABASE_URL: url.toString(), LOG_LEVEL: 'info' },
})
const cookie = `${SESSION_COOKIE}=${signedSessionCookie(await insertSession(pool, admin.id), secret)}`
let logRead = server.output().length
const loggedTimes = () => {
  const text = server.output()
  const lines = text.slice(logRead).split('\n')
  logRead = text.length
  return lines.flatMap((line) => {
    if (!line.includes('"responseTime"')) return []
    const entry = JSON.parse(line) as { responseTime?: number; req?: unknown }
    return entry.req && typeof entry.responseTime === 'number' ? [entry.responseTime] : []
  })
}

const rows: string[] = []
let failures = 0
try {
  for (const scenario of scenarios) {
    const shown = await scenario.service()
    const service: number[] = []
    for (let index = 0; index < warmUp + iterations; index++) {
      const started = performance.now()
      await scenario.service()
      if (index >= warmUp) service.push(performance.now() - started)
    }
    loggedTimes()
    for (let index = 0; index < warmUp + iterations; index++) {
      const response = await fetch(`${base}${scenario.page}`, { headers: { cookie } })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`GET ${scenario.page}: ${response.status}`)
    }
    let logged = loggedTimes()
    for (let wait = 0; wait < 20 && logged.length < warmUp + iterations; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      logged = logged.concat(loggedTimes())
    }
    const serverTimes = [...logged.slice(warmUp)].sort((a, b) => a - b)
    const serviceTimes = [...service].sort((a, b) => a - b)
    const p95 = Math.max(quantile(serviceTimes, 0.95), quantile(serverTimes, 0.95))
    const pass = p95 < scenario.goal
    if (!pass) failures++
    const f = (value: number) => value.toFixed(1).padStart(7)
    rows.push(
      `${scenario.name.padEnd(44)} ${String(shown).padStart(7)} | ${f(quantile(serviceTimes, 0.5))} ${f(quantile(serviceTimes, 0.95))} ${f(serviceTimes.at(-1) ?? 0)} | ${f(quantile(serverTimes, 0.5))} ${f(quantile(serverTimes, 0.95))} ${f(serverTimes.at(-1) ?? 0)} | ${String(scenario.goal).padStart(4)} ${pass ? 'PASS' : 'FAIL'}`,
    )
  }
} finally {
  await server.stop()
  await pool.end()
  await embedded?.stop()
}

console.log(
  `\nAdmin at scale: ${customers} customers, ${requests} requests; ${iterations} calls per cell after ${warmUp} unmeasured; ${new Date().toISOString()}\n`,
)
console.log(
  `${''.padEnd(44)} ${'found'.padStart(7)} | service p50     p95     max | server  p50     p95     max | goal`,
)
for (const row of rows) console.log(row)
console.log(
  `\nms. found: users on the page, or requests in the period. server: its request log (session, loaders, render).`,
)
console.log(
  failures ? `${failures} scenario(s) at or over the goal at p95.` : 'Every scenario under its goal at p95.',
)
