import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { e2eDataDir } from '../../playwright.config.ts'
import { runningEmbeddedUrl } from '../../server/embedded-postgres.ts'
import { insertPasswordAccount, insertSession, signedSessionCookie } from '../support/accounts.ts'

// The password of every account the browser tests make.
export const PASSWORD = 'tea with matcha 2026'

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

/** How many e-mails to `to` the development outbox holds (for "was another one sent?"). */
export function emailCount(to: string, dataDir = e2eDataDir) {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM outbox_emails WHERE "to" = $1', [to])
    return Number(rows[0]?.n ?? 0)
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

/**
 * A verified e-mail + password account and an open session for it, written straight into the e2e
 * server's database; `cookie` is the signed session cookie's value, signed with the secret the
 * server generated under its DATA_DIR. Sign-in itself is tested through the form elsewhere.
 */
export async function insertSignedInAccount(
  options: Parameters<typeof insertPasswordAccount>[1],
  dataDir = e2eDataDir,
) {
  const secret = fs.readFileSync(path.join(dataDir, 'auth-secret'), 'utf8').trim()
  return withE2eDatabase(async (client) => {
    const account = await insertPasswordAccount(client, { password: PASSWORD, ...options })
    const token = await insertSession(client, account.id)
    return { ...account, cookie: signedSessionCookie(token, secret) }
  }, dataDir)
}

/** An e-mail + password account (PASSWORD of the e2e tests unless given), without a session. */
export function insertAccount(options: Parameters<typeof insertPasswordAccount>[1], dataDir = e2eDataDir) {
  return withE2eDatabase(
    (client) => insertPasswordAccount(client, { password: PASSWORD, ...options }),
    dataDir,
  )
}

/** Stores a contact message as the form would (not forwarded); returns its id. */
export function insertContactMessage(
  {
    name,
    email,
    message,
    language = 'es',
  }: { name: string; email: string; message: string; language?: string },
  dataDir = e2eDataDir,
) {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO contact_messages (name, email, subject, message, language, forward_status)
       VALUES ($1, $2, 'order', $3, $4, 'not_configured') RETURNING id`,
      [name, email, message, language],
    )
    return rows[0]?.id ?? ''
  }, dataDir)
}

/** Moves a shipment's shipping date back `days` days: the waiting time before a lost-parcel claim, passed. */
export function backdateShipping(shipmentNumber: string, days: number, dataDir = e2eDataDir) {
  return withE2eDatabase(async (client) => {
    await client.query(
      `UPDATE shipments SET shipped_at = shipped_at - $2::int * interval '1 day' WHERE number = $1`,
      [shipmentNumber, days],
    )
  }, dataDir)
}
