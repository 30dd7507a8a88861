import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { expect, inject, test } from 'vitest'
import { runMigrations } from '#db/migrate.ts'
import { onFileCleanup } from '#tests/db.ts'
import {
  insertPasswordAccount,
  insertSession,
  SESSION_COOKIE,
  signedSessionCookie,
} from '#tests/support/accounts.ts'
import { databaseUrl } from '../setup/database.ts'
import { freePort, SYSTEM_TEST_SECRET, startAppOnTestDatabase, startServer } from './server-process.ts'

// The README's backup and restore ("Running at scale"), exercised: an order made through the
// running app, `pg_dump -Fc` of its database, `pg_restore` into a fresh one, and the app started
// on the copy finds the order (and its customer's session); the migrations have nothing to do.
// pg_dump refuses a server newer than itself: with the embedded PostgreSQL (18) and Debian's
// client (15), this runs only against DATABASE_URL's server (CI's PostgreSQL 15).

/** pg_dump and pg_restore of the newest client on this machine, with its major version. */
function findClient(): { bin: string; major: number } | null {
  const candidates = [
    ...(fs.existsSync('/usr/lib/postgresql')
      ? fs
          .readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => `/usr/lib/postgresql/${version}/bin`)
      : []),
    '/usr/bin',
  ]
  for (const bin of candidates) {
    if (!fs.existsSync(path.join(bin, 'pg_dump')) || !fs.existsSync(path.join(bin, 'pg_restore'))) continue
    const version = execFileSync(path.join(bin, 'pg_dump'), ['--version'], { encoding: 'utf8' })
    const major = Number(/(\d+)(?:\.\d+)?/.exec(version.replace(/^[^)]*\)/, ''))?.[1])
    if (major) return { bin, major }
  }
  return null
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text, params)).rows
  } finally {
    await client.end()
  }
}

test('an order survives pg_dump -Fc and pg_restore into a fresh database, and the app runs on the copy', async (context) => {
  const client = findClient()
  const [version] = await query<{ server_version_num: string }>(
    inject('databaseAdminUrl'),
    'SHOW server_version_num',
  )
  const serverVersion = version?.server_version_num
  const serverMajor = Math.floor(Number(serverVersion) / 10_000)
  if (!client || client.major < serverMajor) {
    console.warn(
      `backup-restore skipped: the PostgreSQL server is ${serverMajor} and ${client ? `the newest pg_dump here is ${client.major}` : 'no pg_dump is installed'}; pg_dump cannot dump a newer server (the embedded package ships none). Run with DATABASE_URL on PostgreSQL ≤ ${client?.major ?? 15}, as CI does.`,
    )
    context.skip()
    return
  }

  // The order, through the running app.
  const { server, database } = await startAppOnTestDatabase()
  const ana = await insertPasswordAccount(database.pool, {
    email: 'ana@example.com',
    name: 'Ana',
    language: 'en',
  })
  const token = await insertSession(database.pool, ana.id)
  const cookie = `${SESSION_COOKIE}=${signedSessionCookie(token, SYSTEM_TEST_SECRET)}; lang=en`
  const form = new URLSearchParams({
    form: 'request',
    'items[0].url': 'https://jp.mercari.com/item/m1',
    'items[0].quantity': '2',
    'items[0].price': '1500',
    total: '3000',
  })
  const sent = await fetch(`${server.url}/user-dashboard`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: server.url, accept: 'text/html' },
    body: form,
  })
  expect(sent.status).toBe(302)
  const [order] = (
    await database.pool.query<{ id: string; number: string }>(
      'SELECT id, number::text FROM purchase_requests WHERE user_id = $1',
      [ana.id],
    )
  ).rows
  expect(order).toBeDefined()
  if (!order) return
  const migrationsBefore = await database.pool.query(
    'SELECT hash FROM drizzle.__drizzle_migrations ORDER BY id',
  )

  // The backup, taken while the app runs (pg_dump reads one consistent snapshot).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-backup-'))
  const dump = path.join(dir, 'storefront.dump')
  const started = performance.now()
  execFileSync(path.join(client.bin, 'pg_dump'), ['-Fc', '-f', dump, '-d', database.url])
  const dumpedMs = performance.now() - started

  // The restore: a fresh, empty database.
  const restored = `restore_${randomUUID().replaceAll('-', '')}`
  const adminUrl = inject('databaseAdminUrl')
  await query(adminUrl, `CREATE DATABASE ${restored} TEMPLATE template0`)
  const restoredUrl = databaseUrl(adminUrl, restored)
  onFileCleanup(async () => {
    await query(adminUrl, `DROP DATABASE IF EXISTS ${restored} WITH (FORCE)`)
    fs.rmSync(dir, { recursive: true, force: true })
  })
  execFileSync(path.join(client.bin, 'pg_restore'), [
    '--no-owner',
    '--no-acl',
    '--exit-on-error',
    '-d',
    restoredUrl,
    dump,
  ])
  console.log(
    `backup-restore: pg_dump ${client.major} of a PostgreSQL ${serverMajor} database: ${fs.statSync(dump).size} bytes in ${Math.round(dumpedMs)} ms; restored in ${Math.round(performance.now() - started - dumpedMs)} ms`,
  )

  // The order is there, with its item.
  expect(
    await query(
      restoredUrl,
      'SELECT r.number::text, r.user_id, i.quantity FROM purchase_requests r JOIN request_items i ON i.request_id = r.id WHERE r.id = $1',
      [order.id],
    ),
  ).toEqual([{ number: order.number, user_id: ana.id, quantity: 2 }])

  // Migrations have nothing left to do, and the app starts on the copy: same AUTH_SECRET, so the
  // customer's session still opens the order's page.
  await runMigrations(restoredUrl)
  expect(await query(restoredUrl, 'SELECT hash FROM drizzle.__drizzle_migrations ORDER BY id')).toEqual(
    migrationsBefore.rows,
  )
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-restored-'))
  const port = await freePort()
  const copy = await startServer({
    DATABASE_URL: restoredUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
  })
  try {
    const page = await fetch(`${copy.url}/user-dashboard/requests/${order.id}`, { headers: { cookie } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(order.number)
    expect((await fetch(`${copy.url}/readyz`)).status).toBe(200)
  } finally {
    expect(await copy.stop()).toBe(0)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})
