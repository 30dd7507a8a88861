import pg from 'pg'
import { e2eDataDir } from '../../playwright.config.ts'
import { runningEmbeddedUrl } from '../../server/embedded-postgres.ts'

/** A query session on the e2e server's own (embedded) database. */
async function withE2eDatabase<T>(use: (client: pg.Client) => Promise<T>, dataDir = e2eDataDir): Promise<T> {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(dataDir) })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

/**
 * Asks until a row comes back: e-mails are written by a background job a moment after the
 * answer (up to a poll interval), text messages just after it.
 */
async function waitForRow(client: pg.Client, sql: string, params: unknown[], what: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { rows } = await client.query(sql, params)
    if (rows[0]) return rows[0] as Record<string, string>
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no ${what}`)
}

/**
 * The newest e-mail to `to` in the e2e server's development outbox; with `subject`, the newest
 * whose subject starts with it (so an earlier e-mail to the same address is not taken for one
 * still on its way).
 */
export function latestEmail(to: string, { subject = '', dataDir = e2eDataDir } = {}) {
  return withE2eDatabase(async (client) => {
    const row = await waitForRow(
      client,
      'SELECT subject, text FROM outbox_emails WHERE "to" = $1 AND starts_with(subject, $2) ORDER BY created_at DESC LIMIT 1',
      [to, subject],
      `e-mail to ${to}${subject ? ` about "${subject}"` : ''}`,
    )
    const link = /https?:\/\/\S+/.exec(row.text ?? '')?.[0] ?? ''
    return { subject: row.subject ?? '', text: row.text ?? '', link }
  }, dataDir)
}

/** The newest text message to `to` in the e2e server's development SMS outbox. */
export function latestSms(to: string, dataDir = e2eDataDir) {
  return withE2eDatabase(async (client) => {
    const row = await waitForRow(
      client,
      'SELECT text FROM outbox_sms WHERE "to" = $1 ORDER BY created_at DESC LIMIT 1',
      [to],
      `text message to ${to}`,
    )
    return { text: row.text ?? '', code: /\b(\d{6})\b/.exec(row.text ?? '')?.[1] ?? '' }
  }, dataDir)
}

/** Gives an e2e account a role directly in its database (what an admin would do in the panel). */
export function setRole(email: string, role: 'user' | 'admin' | 'moderator', dataDir = e2eDataDir) {
  return withE2eDatabase(async (client) => {
    await client.query('UPDATE users SET role = $2 WHERE email = $1', [email, role])
  }, dataDir)
}
