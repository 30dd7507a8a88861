import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { runMigrations } from '#db/migrate.ts'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '#server/embedded-postgres.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A connection string to the server's maintenance database. */
    databaseAdminUrl: string
    /** Migrated database each test file clones. */
    templateDatabase: string
  }
}

/**
 * Starts the embedded PostgreSQL (or uses DATABASE_URL's server, as CI does for PostgreSQL 15),
 * then migrates a template database once for the whole run.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedPostgres | null = null
  let adminUrl: string
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL
  } else {
    embedded = await startEmbeddedPostgres({
      dataDir: path.resolve('data/test-postgres'),
      database: 'postgres',
    })
    adminUrl = embedded.adminUrl
  }

  const template = `storefront_template_${process.pid}`
  await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${template}`)
    await client.query(`CREATE DATABASE ${template}`)
  })
  await runMigrations(databaseUrl(adminUrl, template))

  project.provide('databaseAdminUrl', adminUrl)
  project.provide('templateDatabase', template)

  return async () => {
    await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`))
    await embedded?.stop()
  }
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}
