import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'

/** The newest e-mail to `to` in the e2e server's development outbox (its embedded database). */
export async function latestEmail(to: string, dataDir = 'data/e2e') {
  const port = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]
  const password = fs.readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim()
  const client = new pg.Client({
    host: '127.0.0.1',
    port: Number(port),
    user: 'postgres',
    password,
    database: 'storefront',
  })
  await client.connect()
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      const { rows } = await client.query(
        'SELECT subject, text FROM outbox_emails WHERE "to" = $1 ORDER BY created_at DESC LIMIT 1',
        [to],
      )
      if (rows[0]) {
        const link = /https?:\/\/\S+/.exec(rows[0].text)?.[0] ?? ''
        return { subject: rows[0].subject as string, text: rows[0].text as string, link }
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`no e-mail to ${to}`)
  } finally {
    await client.end()
  }
}
