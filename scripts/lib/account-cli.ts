import pg from 'pg'
import { runMigrations } from '../../db/migrate.ts'
import {
  DataDirInUseError,
  runningEmbeddedUrl,
  startEmbeddedPostgres,
} from '../../server/embedded-postgres.ts'
import { parseEnv } from '../../server/env.ts'

/**
 * The set-up of a CLI that works on one account by e-mail (`npm run <command> -- <email>`): reads
 * and checks the e-mail argument (printing the usage and exiting 2 when it is missing or not an
 * address), then connects to the database the app would use: DATABASE_URL's server, or the
 * embedded database (the running app's, or started briefly when the app is stopped), migrated
 * first. `close` ends the connection and stops a database started here.
 */
export async function accountCli(command: string) {
  const email = process.argv[2]?.trim().toLowerCase()
  if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) {
    console.error(`Usage: npm run ${command} -- <email>`)
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
  const close = async () => {
    await client.end()
    await stop()
  }
  return { email, client, close }
}
