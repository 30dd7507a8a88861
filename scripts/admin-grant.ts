/**
 * `npm run admin:grant -- <email>`: makes an existing account an admin, recorded in the role
 * audit trail as a system change. Works on DATABASE_URL's server, or on the embedded database
 * (the running app's, or started briefly when the app is stopped).
 */
import pg from 'pg'
import { runMigrations } from '../db/migrate.ts'
import { DataDirInUseError, runningEmbeddedUrl, startEmbeddedPostgres } from '../server/embedded-postgres.ts'
import { parseEnv } from '../server/env.ts'

const email = process.argv[2]?.trim().toLowerCase()
if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) {
  console.error('Usage: npm run admin:grant -- <email>')
  process.exit(2)
}

const env = parseEnv()
let stop = async () => {}
let url = env.DATABASE_URL
if (!url) {
  try {
    const embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR })
    url = embedded.url
    stop = embedded.stop
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error
    // The app is running and owns the cluster: use it.
    url = runningEmbeddedUrl(env.DATA_DIR)
  }
}

// The database may be behind this code (the app has not started since an update).
await runMigrations(url)
const client = new pg.Client({ connectionString: url })
await client.connect()
try {
  await client.query('BEGIN')
  const { rows } = await client.query<{ id: string }>(
    `UPDATE users SET role = 'admin' WHERE email = $1 RETURNING id`,
    [email],
  )
  const user = rows[0]
  if (!user) {
    await client.query('ROLLBACK')
    console.error(`No account with the e-mail ${email}. It must sign up first.`)
    process.exitCode = 1
  } else {
    await client.query(
      `INSERT INTO role_assignments (user_id, role, assigned_by) VALUES ($1, 'admin', NULL)`,
      [user.id],
    )
    await client.query('COMMIT')
    console.log(`${email} is now an admin. Open sessions see it on their next request.`)
  }
} finally {
  await client.end()
  await stop()
}
