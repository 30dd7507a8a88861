import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'
import { createDb } from '#db/client.ts'
import { databaseUrl } from './setup/database.ts'

const cleanups: (() => Promise<void>)[] = []

/**
 * Something to undo when the current test file is done (a database to drop, a server to stop).
 * tests/setup/cleanup.ts runs them after every file, last first, so a server stops before its
 * database is dropped. (A Vitest hook registered inside another hook or a test never runs.)
 */
export function onFileCleanup(cleanup: () => Promise<void>) {
  cleanups.push(cleanup)
}

export async function runFileCleanups() {
  for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) await cleanup()
}

/**
 * A fresh database for the calling test file, cloned from the migrated template (tens of
 * milliseconds), dropped when the file's tests are done. Same SQL, constraints and migrations
 * as production.
 */
export async function createTestDatabase() {
  const adminUrl = inject('databaseAdminUrl')
  const name = `test_${randomUUID().replaceAll('-', '')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`)
  await admin.end()

  const url = databaseUrl(adminUrl, name)
  const { db, pool } = createDb(url, { max: 4 })
  onFileCleanup(async () => {
    await pool.end()
    const cleanup = new pg.Client({ connectionString: adminUrl })
    await cleanup.connect()
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await cleanup.end()
  })
  return { db, pool, url, name }
}
