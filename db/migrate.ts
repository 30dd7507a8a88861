import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import { PgBoss } from 'pg-boss'

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

// Any constant works; it only has to be the same in every process of this app.
const MIGRATION_LOCK_ID = 727_001

/**
 * Applies the committed migrations, then installs or upgrades the job queue's own schema
 * (`pgboss`, owned by pg-boss: see docs/decisions/009-job-queue.md). Several app processes may
 * start at once against one database, so the work runs under a PostgreSQL advisory lock: one
 * migrates, the others wait and then find nothing left to do. Because this runs on the test
 * template too, every cloned test database already has the queue's tables.
 */
export async function runMigrations(
  databaseUrl: string,
  // Another folder: the benchmark's "before" side, an older commit's migrations (scripts/bench-orders.ts).
  { migrationsFolder = MIGRATIONS_FOLDER }: { migrationsFolder?: string } = {},
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID])
    await migrate(drizzle({ client, casing: 'snake_case' }), { migrationsFolder })
    await installJobQueueSchema(client)
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined)
    await client.end()
  }
}

/**
 * pg-boss installs (or migrates) its schema when it starts with `migrate: true`; the app's queues
 * start with `migrate: false`, so only this step, under the lock above, ever changes it.
 */
async function installJobQueueSchema(client: pg.Client): Promise<void> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => client.query(text, values as unknown[]) },
    migrate: true,
    supervise: false,
    schedule: false,
    registerInstance: false,
  })
  const failures: Error[] = []
  boss.on('error', (error) => failures.push(error))
  await boss.start()
  await boss.stop({ graceful: false, close: false })
  if (failures[0]) throw failures[0]
}
