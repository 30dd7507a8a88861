import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, inject } from 'vitest'
import { createDb } from '#db/client.ts'
import { databaseUrl } from './setup/database.ts'

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
  afterAll(async () => {
    await pool.end()
    const cleanup = new pg.Client({ connectionString: adminUrl })
    await cleanup.connect()
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await cleanup.end()
  })
  return { db, pool, url, name }
}
