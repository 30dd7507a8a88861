/**
 * `npm run bench:orders`: the orders pages at shop scale (docs/decisions/022-orders-at-scale.md).
 * On a PostgreSQL of its own (embedded, in ./data/bench-orders; or DATABASE_URL's server, where it
 * makes and drops `bench_orders`), migrates a new database and seeds BENCH_ORDERS_CUSTOMERS
 * (10,000) customers with BENCH_ORDERS_REQUESTS (100,000) purchase requests, their items and
 * histories (scripts/lib/orders-seed.ts), then starts the production build on it and times each
 * scenario three ways, one after the other:
 *  - service: the function the route calls (core/orders/request-service.ts), in this process,
 *    with `{ db, actor }`: the database work and its mapping, no rendering;
 *  - server: the page through the production server (session lookup, loader, React render), as
 *    the server's own request log measures it (pino-http's responseTime, whole milliseconds);
 *  - http: the same requests as this client sees them on loopback.
 * Scenarios: a customer's history (page 1 and a deep page, the busiest and the median customer),
 * a request's page (owner, staff), the staff queue (all, each status, searches by name, e-mail,
 * number and link, search + status, page 2) and sending a request (one transaction with its
 * notification and jobs), and the warehouse (scripts/lib/warehouse-seed.ts: 5 items of each
 * customer stored, 50,000 in all, and a shipment for a fifth of them): the shipping tab, the
 * staff's shipments queue (all, to pack, page 2), a shipment's page and an estimate; and the
 * staff's day (ADR 036): the work for today, the queue narrowed to items to buy, payments to
 * confirm and the staff's notifications.
 * BENCH_ORDERS_ITERATIONS (200) timed calls each after 20 unmeasured;
 * p50/p95/p99/max in ms, PASS when service and server are under 50 ms at p95.
 *
 * BENCH_ORDERS_COMPARE=<git ref> (e.g. main) first compares that commit with this tree, side by
 * side in the same run: a second database migrated with the ref's migrations and seeded alike,
 * the ref's request-service.ts against it, calls alternating between the two (services only;
 * BENCH_ORDERS_COMPARE_ITERATIONS, default 20, as the old queue takes seconds a call).
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { listAddresses } from '#core/customers/profile-service.ts'
import { countMyUnread, listMyNotifications } from '#core/notifications/notification-service.ts'
import { REQUEST_STATUSES, type RequestStatus } from '#core/orders/request-machine.ts'
import * as currentService from '#core/orders/request-service.ts'
import { staffWorkToday } from '#core/orders/staff-work.ts'
import { listPaymentsToConfirm } from '#core/payments/transfer-notices.ts'
import { createShippingRatesService } from '#core/pricing/shipping-rates-service.ts'
import { seedDatabase } from '#core/seed/seed-database.ts'
import { createSettingsService } from '#core/settings/settings-service.ts'
import type { Actor } from '#core/shared/service-context.ts'
import {
  estimateMyShipment,
  getShipment,
  listMyShipments,
  listShipmentQueue,
} from '#core/shipping/shipment-service.ts'
import { createDiskFileStore } from '#core/uploads/file-store.ts'
import { listOverdueItems } from '#core/warehouse/overdue-storage.ts'
import { listStoredItems } from '#core/warehouse/stored-items.ts'
import { createDb } from '#db/client.ts'
import { runMigrations } from '#db/migrate.ts'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '#server/embedded-postgres.ts'
import { insertSession, SESSION_COOKIE, signedSessionCookie } from '#tests/support/accounts.ts'
import { startTestJobQueue } from '#tests/support/jobs.ts'
import { seedOrders } from './lib/orders-seed.ts'
import { clusterCpuMeter, cpuTimesAvailable, processCpuMs } from './lib/process-cpu.ts'
import { startProductionServer } from './lib/production-server.ts'
import { seedWarehouse } from './lib/warehouse-seed.ts'

const iterations = Number(process.env.BENCH_ORDERS_ITERATIONS ?? 200)
const warmUp = 20
const customers = Number(process.env.BENCH_ORDERS_CUSTOMERS ?? 10_000)
const requests = Number(process.env.BENCH_ORDERS_REQUESTS ?? 100_000)
const compareRef = process.env.BENCH_ORDERS_COMPARE || null
const compareIterations = Number(process.env.BENCH_ORDERS_COMPARE_ITERATIONS ?? 20)
const port = Number(process.env.BENCH_PORT ?? 4326)
const base = `http://127.0.0.1:${port}`
const dataDir = './data/bench-orders'
const goalMs = 50
const secret = randomBytes(32).toString('hex')
const admin: Actor = { id: 'bench-admin', role: 'admin' }

type Api = Pick<typeof currentService, 'listMyRequests' | 'getRequest' | 'listRequestQueue' | 'submitRequest'>

if (!fs.existsSync('build/server/index.js')) {
  console.error('Run `npm run build` first (npm run bench:orders does it for you).')
  process.exit(1)
}

function quantile(sorted: readonly number[], q: number) {
  const position = (sorted.length - 1) * q
  const low = Math.floor(position)
  const high = Math.ceil(position)
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (position - low)
}

const sorted = (times: number[]) => [...times].sort((a, b) => a - b)

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

function databaseUrl(serverUrl: string, database: string) {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

// The PostgreSQL server: ours (embedded) unless DATABASE_URL names one.
let embedded: EmbeddedPostgres | null = null
let adminUrl = process.env.DATABASE_URL ?? ''
if (!adminUrl) {
  fs.rmSync(dataDir, { recursive: true, force: true })
  embedded = await startEmbeddedPostgres({ dataDir, database: 'postgres' })
  adminUrl = embedded.adminUrl
}

type Side = Awaited<ReturnType<typeof prepareDatabase>>

/** A new database, migrated (this tree's migrations, or another folder's), with the shop seeded in it. */
async function prepareDatabase(name: string, migrationsFolder?: string) {
  await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await client.query(`CREATE DATABASE ${name}`)
  })
  const url = databaseUrl(adminUrl, name)
  await runMigrations(url, migrationsFolder ? { migrationsFolder } : {})
  const { db, pool } = createDb(url, { max: 10 })
  await seedDatabase(db)
  // Staff: one admin, who also acted in the seeded histories.
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, role, language, created_at, updated_at)
     VALUES ($1, 'Bench Admin', 'bench-admin@example.com', true, 'admin', 'es', now(), now())`,
    [admin.id],
  )
  const started = performance.now()
  const seeded = await seedOrders(pool, { customers, requests, staffId: admin.id })
  const seconds = (performance.now() - started) / 1000
  // The real queue, written to in the caller's transaction; nothing here works it.
  const jobs = await startTestJobQueue(pool)
  return {
    name,
    url,
    db,
    pool,
    seeded,
    seconds,
    orders: {
      jobs,
      settings: createSettingsService({ db }),
      payments: [],
      appUrl: 'http://localhost',
      files: createDiskFileStore(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-files-'))),
    },
    async close() {
      await jobs.stop({ timeoutMs: 1000 }).catch(() => undefined)
      await pool.end()
    },
  }
}

type Scenario = {
  name: string
  actor: Actor
  /** One call of the service; returns what it found ("rows on the page/matches"). */
  service: (index: number) => Promise<string>
  /** One request to the server; throws on an unexpected status. */
  http: (index: number, cookie: string) => Promise<void>
}

type Filters = { status?: RequestStatus; q?: string; cursor?: string | null }

async function getPage(pathAndQuery: string, cookie: string) {
  const response = await fetch(`${base}${pathAndQuery}`, { headers: { cookie } })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`GET ${pathAndQuery}: ${response.status}`)
}

/**
 * The busiest customer and the median one, by number of requests (the same on both sides: the
 * seed is deterministic but for the random UUIDs), and a regular.
 */
async function benchCustomers(pool: pg.Pool) {
  const { rows: spread } = await pool.query<{ user_id: string; requests: number }>(
    `SELECT user_id, count(*)::int AS requests FROM purchase_requests GROUP BY user_id ORDER BY requests DESC, user_id`,
  )
  const busiest = spread[0]
  const median = spread[Math.floor(spread.length / 2)]
  // A regular: the least busy customer with two pages (40 requests), for a usual page 2.
  const regularRow = spread.findLast((row) => row.requests >= 2 * 20)
  if (!busiest || !median || !regularRow) throw new Error('the seed wrote too few requests')
  return { busiest, median, regularRow }
}

/** Requests, a number, an e-mail, a name and a Mercari item id to look for, taken from the seeded data. */
async function benchSamples(pool: pg.Pool, heavy: Actor, typical: Actor) {
  const { rows: samples } = await pool.query<{
    heavyRequest: string
    typicalRequest: string
    number: string
    email: string
    name: string
    mercari: string
  }>(
    `SELECT (SELECT id FROM purchase_requests WHERE user_id = $1 ORDER BY submitted_at DESC, id DESC LIMIT 1 OFFSET 5) AS "heavyRequest",
            (SELECT id FROM purchase_requests WHERE user_id = $2 ORDER BY submitted_at DESC, id DESC LIMIT 1) AS "typicalRequest",
            (SELECT number FROM purchase_requests ORDER BY number LIMIT 1 OFFSET $3) AS number,
            (SELECT email FROM users WHERE id = $2) AS email,
            (SELECT name FROM users WHERE id = $2) AS name,
            (SELECT substring(url from 'm[0-9]{11}') FROM request_items WHERE shop_host = 'jp.mercari.com' ORDER BY url LIMIT 1) AS mercari`,
    [heavy.id, typical.id, Math.floor(requests / 3)],
  )
  const sample = samples[0]
  if (!sample) throw new Error('no samples')
  return sample
}

/** The scenario builders on one database through one version of the service. */
function scenarioBuilders(api: Api, { db, orders }: Side) {
  const history = (name: string, actor: Actor, cursor: string | null): Scenario => ({
    name,
    actor,
    service: async () => `${(await api.listMyRequests({ db, actor }, { cursor })).rows.length}`,
    http: (_, cookie) =>
      getPage(`/user-dashboard/requests${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, cookie),
  })
  const detail = (name: string, actor: Actor, id: string, area: string): Scenario => ({
    name,
    actor,
    service: async () => {
      const request = await api.getRequest({ db, actor }, id)
      return `${request.items.length}+${request.events.length}`
    },
    http: (_, cookie) => getPage(`/${area}/requests/${id}`, cookie),
  })
  const queue = (name: string, filters: Filters): Scenario => {
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(filters)) if (value) search.set(key, value)
    return {
      name: `queue: ${name}`,
      actor: admin,
      service: async () => {
        // The ref's version may return exact counts only; a broad search (counts null) shows "N+".
        const page: {
          rows: unknown[]
          counts: Record<string, number> | null
          matchesAtLeast?: number | null
        } = await api.listRequestQueue({ db, actor: admin }, filters)
        const matches = !page.counts
          ? `${page.matchesAtLeast}+`
          : filters.status
            ? page.counts[filters.status]
            : Object.values(page.counts).reduce((sum, count) => sum + count, 0)
        return `${page.rows.length}/${matches}`
      },
      http: (_, cookie) => getPage(`/admin-dashboard/requests?${search}`, cookie),
    }
  }
  const items = (index: number) => [
    { url: `https://jp.mercari.com/item/m${90_000_000_000 + index}`, quantity: 1 },
    { url: `https://www.amazon.co.jp/dp/B0BENCH${String(index).padStart(4, '0')}`, quantity: 2 },
  ]
  const send = (actor: Actor): Scenario => ({
    name: 'send a request (2 links)',
    actor,
    service: async (index) => {
      await api.submitRequest({ db, actor, ...orders }, { items: items(index) }, { locale: 'es' })
      return '1'
    },
    http: async (index, cookie) => {
      const form = new URLSearchParams({ form: 'request' })
      items(100_000 + index).forEach((item, position) => {
        form.set(`items[${position}].url`, item.url)
        form.set(`items[${position}].quantity`, String(item.quantity))
      })
      const response = await fetch(`${base}/user-dashboard`, {
        method: 'POST',
        headers: { cookie, origin: base },
        body: form,
        redirect: 'manual',
      })
      await response.arrayBuffer()
      if (response.status !== 302) throw new Error(`POST /user-dashboard: ${response.status}`)
    },
  })
  return { history, detail, queue, send }
}

/** The scenarios on one database through one version of the service (the same names and order on both sides). */
async function scenariosFor(api: Api, side: Side) {
  const { db, pool } = side
  const { busiest, median, regularRow } = await benchCustomers(pool)
  const heavy: Actor = { id: busiest.user_id, role: 'user' }
  const typical: Actor = { id: median.user_id, role: 'user' }
  const regular: Actor = { id: regularRow.user_id, role: 'user' }

  /** The cursor `pages` pages into a customer's history, followed the way the page does. */
  const historyCursor = async (actor: Actor, pages: number) => {
    let cursor: string | null = null
    for (let page = 0; page < pages; page++) {
      const next: { nextCursor: string | null } = await api.listMyRequests({ db, actor }, { cursor })
      if (!next.nextCursor) break
      cursor = next.nextCursor
    }
    return cursor
  }
  const deepCursor = await historyCursor(heavy, Math.floor(busiest.requests / 20 / 2))
  const regularPage2 = await historyCursor(regular, 1)

  const sample = await benchSamples(pool, heavy, typical)
  const lastName = sample.name.split(' ')[1]?.slice(0, 5) ?? 'Garcí'

  const page2 = async (filters: Filters) =>
    (await api.listRequestQueue({ db, actor: admin }, filters)).nextCursor ?? null
  const { history, detail, queue, send } = scenarioBuilders(api, side)

  const scenarios: Scenario[] = [
    history(`history p1, busiest (${busiest.requests})`, heavy, null),
    history('history deep page (cursor), busiest', heavy, deepCursor),
    history(`history p1, median customer (${median.requests})`, typical, null),
    history(`history p2, a regular (${regularRow.requests})`, regular, regularPage2),
    detail('request page, owner', heavy, sample.heavyRequest, 'user-dashboard'),
    detail('request page, staff', admin, sample.typicalRequest, 'admin-dashboard'),
    queue('all', {}),
    ...REQUEST_STATUSES.map((status) => queue(`status ${status}`, { status })),
    queue(`name "${lastName}"`, { q: lastName }),
    queue(`full name "${sample.name}"`, { q: sample.name }),
    queue('e-mail, whole', { q: sample.email }),
    queue('e-mail "hotmail"', { q: 'hotmail' }),
    queue(`number "${sample.number}"`, { q: sample.number }),
    queue(`number digits "${sample.number.slice(-5)}"`, { q: sample.number.slice(-5) }),
    queue('link "mercari"', { q: 'mercari' }),
    queue('link "B0C"', { q: 'B0C' }),
    queue(`link item id "${sample.mercari}"`, { q: sample.mercari }),
    queue('no match "zzqx"', { q: 'zzqx' }),
    queue('"mercari" + submitted', { q: 'mercari', status: 'submitted' }),
    queue('"B0C" + completed', { q: 'B0C', status: 'completed' }),
    queue('all, page 2', { cursor: await page2({}) }),
    queue('completed, page 2', { status: 'completed', cursor: await page2({ status: 'completed' }) }),
    queue('"mercari", page 2', { q: 'mercari', cursor: await page2({ q: 'mercari' }) }),
    send(typical),
  ]
  return { scenarios, busiest, median, actors: [heavy, typical, regular, admin] }
}

/** The shipping tab, the shipments queue and pages, and an estimate, at warehouse scale. */
async function warehouseScenarios({ db, pool, orders }: Side) {
  const { rows } = await pool.query<{ stored: string; shipping: string; shipment: string }>(
    `SELECT (SELECT p.user_id FROM packages p
              WHERE NOT EXISTS (SELECT 1 FROM shipments s WHERE s.user_id = p.user_id)
              GROUP BY p.user_id ORDER BY count(*) DESC, p.user_id LIMIT 1) AS stored,
            (SELECT user_id FROM shipments WHERE status = 'requested' ORDER BY requested_at DESC LIMIT 1) AS shipping,
            (SELECT id FROM shipments WHERE status = 'requested' ORDER BY requested_at DESC LIMIT 1) AS shipment`,
  )
  const row = rows[0]
  if (!row?.stored || !row.shipping || !row.shipment) throw new Error('the warehouse seed wrote too little')
  const storedCustomer: Actor = { id: row.stored, role: 'user' }
  const shippingCustomer: Actor = { id: row.shipping, role: 'user' }
  const choice = {
    items: (
      await pool.query<{ id: string }>(
        `SELECT i.id FROM request_items i JOIN purchase_requests r ON r.id = i.request_id
          WHERE r.user_id = $1 AND i.status = 'received' AND i.package_id IS NOT NULL ORDER BY i.id LIMIT 2`,
        [storedCustomer.id],
      )
    ).rows.map((item) => item.id),
    addressId: (
      await pool.query<{ id: string }>('SELECT id FROM addresses WHERE user_id = $1', [storedCustomer.id])
    ).rows[0]?.id,
    method: 'economic',
  }
  const rates = (await createShippingRatesService({ db }).get()).tables
  const page2 = (await listShipmentQueue({ db, actor: admin })).nextCursor ?? ''
  const tab = (name: string, actor: Actor): Scenario => ({
    name,
    actor,
    service: async () => {
      const [items] = await Promise.all([
        listStoredItems({ db, actor }, { now: new Date(), freeDays: 30, feePerDayJpy: 100 }),
        listMyShipments({ db, actor }),
        listAddresses({ db, actor }),
      ])
      return `${items.length}`
    },
    http: (_, cookie) => getPage('/user-dashboard/shipping', cookie),
  })
  const queue = (name: string, query: { status?: string; cursor?: string }): Scenario => ({
    name: `shipments: ${name}`,
    actor: admin,
    service: async () => `${(await listShipmentQueue({ db, actor: admin }, query)).rows.length}`,
    http: (_, cookie) => getPage(`/admin-dashboard/shipments?${new URLSearchParams(query)}`, cookie),
  })
  const scenarios: Scenario[] = [
    tab('shipping tab, 5 items stored', storedCustomer),
    tab('shipping tab, with a shipment', shippingCustomer),
    queue('all', {}),
    queue('to pack', { status: 'requested' }),
    queue('all, page 2', { cursor: page2 }),
    {
      name: 'shipment page, staff',
      actor: admin,
      service: async () => `${(await getShipment({ db, actor: admin }, row.shipment)).lines.length}`,
      http: (_, cookie) => getPage(`/admin-dashboard/shipments/${row.shipment}`, cookie),
    },
    {
      name: 'shipment page, customer',
      actor: shippingCustomer,
      service: async () =>
        `${(await getShipment({ db, actor: shippingCustomer }, row.shipment)).lines.length}`,
      http: (_, cookie) => getPage(`/user-dashboard/shipments/${row.shipment}`, cookie),
    },
    {
      name: 'storage past the free days (staff)',
      actor: admin,
      service: async () => `${(await listOverdueItems({ db, actor: admin, ...orders })).items.length}`,
      http: (_, cookie) => getPage('/admin-dashboard/storage', cookie),
    },
    {
      name: 'shipping estimate (2 items)',
      actor: storedCustomer,
      service: async () => {
        const { estimate } = await estimateMyShipment({ db, actor: storedCustomer, ...orders }, choice, rates)
        return estimate.ok ? `${estimate.weightG} g` : estimate.refusal
      },
      http: async (_, cookie) => {
        const form = new URLSearchParams({
          intent: 'estimate',
          addressId: choice.addressId ?? '',
          method: 'economic',
        })
        for (const item of choice.items) form.append('items', item)
        const response = await fetch(`${base}/user-dashboard/shipping`, {
          method: 'POST',
          headers: { cookie, origin: base },
          body: form,
        })
        await response.arrayBuffer()
        if (response.status !== 200) throw new Error(`POST /user-dashboard/shipping: ${response.status}`)
      },
    },
  ]
  return { scenarios, actors: [storedCustomer, shippingCustomer] }
}

/**
 * The staff's day (docs/decisions/036): the work for today (every count at once), its lists (the
 * queue narrowed to items to buy, payments to confirm) and the staff's notifications.
 */
function staffScenarios({ db }: Side): Scenario[] {
  const moderator: Actor = { id: 'bench-admin', role: 'moderator' }
  return [
    {
      name: 'work for today (admin)',
      actor: admin,
      service: async () => `${(await staffWorkToday({ db, actor: admin })).length}`,
      http: (_, cookie) => getPage('/admin-dashboard', cookie),
    },
    {
      name: 'work for today (moderator counts)',
      actor: admin,
      service: async () => `${(await staffWorkToday({ db, actor: moderator })).length}`,
      http: (_, cookie) => getPage('/admin-dashboard', cookie),
    },
    {
      name: 'queue: items to buy',
      actor: admin,
      service: async () =>
        `${(await currentService.listRequestQueue({ db, actor: admin }, { work: 'to_buy' })).workCount}`,
      http: (_, cookie) => getPage('/admin-dashboard/requests?work=to_buy', cookie),
    },
    {
      name: 'queue: bought, not here',
      actor: admin,
      service: async () =>
        `${(await currentService.listRequestQueue({ db, actor: admin }, { work: 'to_receive' })).workCount}`,
      http: (_, cookie) => getPage('/admin-dashboard/requests?work=to_receive', cookie),
    },
    {
      name: 'payments to confirm',
      actor: admin,
      service: async () => {
        const found = await listPaymentsToConfirm({ db, actor: admin })
        return `${found.held.length}+${found.reported.length}`
      },
      http: (_, cookie) => getPage('/admin-dashboard/payments', cookie),
    },
    {
      name: 'staff notifications',
      actor: admin,
      service: async () => {
        const [page] = await Promise.all([
          listMyNotifications({ db, actor: admin }, { audience: 'staff' }),
          countMyUnread({ db, actor: admin }, 'staff'),
        ])
        return `${page.rows.length}`
      },
      http: (_, cookie) => getPage('/admin-dashboard/notifications', cookie),
    },
  ]
}

/**
 * Milliseconds of each of `iterations` calls after `warmUp` unmeasured ones, and the CPU
 * milliseconds per call by `cpu` (a running total).
 */
async function timeCalls(run: (index: number) => Promise<unknown>, cpu: () => number) {
  for (let index = 0; index < warmUp; index++) await run(index)
  const times: number[] = []
  const cpuBefore = cpu()
  for (let index = 0; index < iterations; index++) {
    const started = performance.now()
    await run(warmUp + index)
    times.push(performance.now() - started)
  }
  return { times, cpu: (cpu() - cpuBefore) / iterations }
}

/** The ref's migrations folder and request-service.ts, beside ours, for the "before" side. */
function checkOut(ref: string) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-orders-'))
  const archive = execFileSync('git', ['archive', ref, 'db/migrations'])
  execFileSync('tar', ['-x', '-C', folder], { input: archive })
  // Beside the current one, so its relative imports resolve; removed when the run ends.
  const service = path.resolve('core/orders', `request-service.bench-${process.pid}.ts`)
  fs.writeFileSync(service, execFileSync('git', ['show', `${ref}:core/orders/request-service.ts`]))
  return {
    migrations: path.join(folder, 'db/migrations'),
    service,
    remove() {
      fs.rmSync(folder, { recursive: true, force: true })
      fs.rmSync(service, { force: true })
    },
  }
}

// CPU per call, which this machine's other work disturbs far less than latency: PostgreSQL's
// (when it is ours, embedded) plus this process's for a service call, or the server's for a page.
const databaseCpu = embedded?.pid && cpuTimesAvailable ? clusterCpuMeter(embedded.pid) : () => 0
const ownCpu = () => {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}
const cpuNote = embedded
  ? 'cpu: ms of CPU per call, PostgreSQL + this process (service) or + the server (page)'
  : 'cpu: ms of CPU per call, this process (service) or the server (page), PostgreSQL not included'

const cell = (value: number) => value.toFixed(1).padStart(7)
const sides: Side[] = []
let server: Awaited<ReturnType<typeof startProductionServer>> | null = null
let checkout: ReturnType<typeof checkOut> | null = null

try {
  const after = await prepareDatabase('bench_orders')
  sides.push(after)
  console.log(
    `Seeded ${after.seeded.users} users, ${after.seeded.requests} requests, ${after.seeded.items} items, ` +
      `${after.seeded.events} events, ${after.seeded.notifications} notifications in ${after.seconds.toFixed(1)} s (with VACUUM ANALYZE)`,
  )
  const warehouseStarted = performance.now()
  const warehouse = await seedWarehouse(after.pool)
  console.log(
    `Stored ${warehouse.stored} items at the office and ${warehouse.shipments} shipment requests in ${((performance.now() - warehouseStarted) / 1000).toFixed(1)} s`,
  )
  const mine = await scenariosFor(currentService, after)
  console.log(
    `Busiest customer: ${mine.busiest.requests} requests; median: ${mine.median.requests}. ${mine.scenarios.length} scenarios.`,
  )

  if (compareRef) {
    checkout = checkOut(compareRef)
    const before = await prepareDatabase('bench_orders_before', checkout.migrations)
    sides.push(before)
    console.log(`Seeded the ${compareRef} side in ${before.seconds.toFixed(1)} s`)
    const theirs = await scenariosFor((await import(checkout.service)) as Api, before)
    const compared: {
      name: string
      before: number[]
      after: number[]
      cpu: { before: number; after: number }
    }[] = []
    for (const [index, scenario] of mine.scenarios.entries()) {
      const old = theirs.scenarios[index]
      if (!old || old.name !== scenario.name) throw new Error(`scenarios differ at ${scenario.name}`)
      // Alternating calls, so a burst of load on this shared machine falls on both.
      const times = { before: [] as number[], after: [] as number[] }
      const cpu = { before: 0, after: 0 }
      for (let call = 0; call < compareIterations + 3; call++) {
        for (const [side, run] of [
          ['before', old.service],
          ['after', scenario.service],
        ] as const) {
          const cpuBefore = ownCpu() + databaseCpu()
          const started = performance.now()
          await run(call)
          const took = performance.now() - started
          if (call < 3) continue
          times[side].push(took)
          cpu[side] += (ownCpu() + databaseCpu() - cpuBefore) / compareIterations
        }
      }
      compared.push({ name: scenario.name, ...times, cpu })
      process.stdout.write('.')
    }
    console.log(
      `\n\nBefore (${compareRef}) and after (this tree), services only, alternating calls: ${compareIterations} each after 3 unmeasured; ms\n`,
    )
    console.log(
      'scenario'.padEnd(44),
      'before p50'.padStart(11),
      'p95'.padStart(7),
      'cpu'.padStart(7),
      'after p50'.padStart(10),
      'p95'.padStart(7),
      'cpu'.padStart(7),
      'p95 before/after'.padStart(17),
    )
    for (const row of compared) {
      const [b, a] = [sorted(row.before), sorted(row.after)]
      console.log(
        row.name.padEnd(44),
        cell(quantile(b, 0.5)).padStart(11),
        cell(quantile(b, 0.95)),
        cell(row.cpu.before),
        cell(quantile(a, 0.5)).padStart(10),
        cell(quantile(a, 0.95)),
        cell(row.cpu.after),
        `${(quantile(b, 0.95) / quantile(a, 0.95)).toFixed(1)}×`.padStart(17),
      )
    }
    console.log(`ms; ${cpuNote}.\n`)
  }

  // The warehouse's pages (this tree only: the compared ref has none).
  const stored = await warehouseScenarios(after)
  mine.scenarios.push(...stored.scenarios)
  mine.actors.push(...stored.actors)
  mine.scenarios.push(...staffScenarios(after))

  server = await startProductionServer({
    port,
    dataDir,
    // info: the request log, whose responseTime is the server's own time for each request.
    env: { APP_URL: base, AUTH_SECRET: secret, DATABASE_URL: after.url, LOG_LEVEL: 'info' },
  })
  const running = server
  const cookies = new Map<string, string>()
  for (const actor of mine.actors) {
    const token = await insertSession(after.pool, actor.id)
    cookies.set(actor.id, `${SESSION_COOKIE}=${signedSessionCookie(token, secret)}`)
  }
  let logRead = running.output().length
  /** The request log's response times written since the last call. */
  const loggedTimes = () => {
    const text = running.output()
    const lines = text.slice(logRead).split('\n')
    logRead = text.length
    return lines.flatMap((line) => {
      if (!line.includes('"responseTime"')) return []
      const entry = JSON.parse(line) as { responseTime?: number; req?: unknown }
      return entry.req && typeof entry.responseTime === 'number' ? [entry.responseTime] : []
    })
  }

  const serverCpu = () => (cpuTimesAvailable ? processCpuMs(running.pid) : 0)

  type Result = { name: string; shown: string; service: number[]; server: number[]; http: number[] }
  const results: (Result & { serviceCpu: number; serverCpu: number })[] = []
  for (const scenario of mine.scenarios) {
    const shown = scenario.name.startsWith('send') ? '' : await scenario.service(0)
    const service = await timeCalls(scenario.service, () => ownCpu() + databaseCpu())
    const cookie = cookies.get(scenario.actor.id) ?? ''
    loggedTimes()
    const http = await timeCalls(
      (index) => scenario.http(index, cookie),
      () => serverCpu() + databaseCpu(),
    )
    // The log line may trail the answer by a moment.
    let logged = loggedTimes()
    for (let wait = 0; wait < 20 && logged.length < warmUp + iterations; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      logged = logged.concat(loggedTimes())
    }
    results.push({
      name: scenario.name,
      shown,
      service: service.times,
      serviceCpu: service.cpu,
      server: logged.slice(-iterations),
      serverCpu: http.cpu,
      http: http.times,
    })
    process.stdout.write('.')
  }

  console.log(
    `\n\nOrders at scale: ${after.seeded.users - 1} customers, ${requests} requests; ${iterations} calls per cell after ${warmUp} unmeasured; ${new Date().toISOString()}\n`,
  )
  console.log(
    ''.padEnd(44),
    ''.padStart(11),
    '| service'.padEnd(41),
    '| server (its request log)'.padEnd(41),
    '| http'.padEnd(17),
  )
  console.log(
    'scenario'.padEnd(44),
    'rows'.padStart(11),
    '|    p50     p95     p99     max     cpu',
    '|    p50     p95     p99     max     cpu',
    '|    p50     p95',
    '  p95 < 50',
  )
  const spread = (times: number[]) =>
    `${[0.5, 0.95, 0.99].map((q) => cell(quantile(times, q))).join(' ')} ${cell(times.at(-1) ?? 0)}`
  let failed = 0
  for (const row of results) {
    const [service, served, http] = [sorted(row.service), sorted(row.server), sorted(row.http)]
    const pass = quantile(service, 0.95) < goalMs && quantile(served, 0.95) < goalMs
    if (!pass) failed++
    console.log(
      row.name.padEnd(44),
      row.shown.padStart(11),
      `|${spread(service)} ${cell(row.serviceCpu)}`,
      `|${spread(served)} ${cell(row.serverCpu)}`,
      `|${cell(quantile(http, 0.5))} ${cell(quantile(http, 0.95))}`,
      pass ? '  PASS' : '  FAIL',
    )
  }
  console.log(
    `\nms. rows: on the page/matching (queue: of its status, or of all); request page: items+events.\n${cpuNote}.`,
  )
  console.log(
    failed
      ? `${failed} scenario(s) at or over ${goalMs} ms at p95 (service or server).`
      : `Every scenario under ${goalMs} ms at p95, service and server.`,
  )
} finally {
  await server?.stop()
  for (const side of sides) await side.close()
  checkout?.remove()
  if (process.env.DATABASE_URL && !process.env.BENCH_ORDERS_KEEP) {
    await withClient(adminUrl, async (client) => {
      for (const side of sides) await client.query(`DROP DATABASE IF EXISTS ${side.name} WITH (FORCE)`)
    })
  }
  await embedded?.stop()
}
