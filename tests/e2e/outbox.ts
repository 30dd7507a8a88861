import pg from 'pg'
import { e2eDataDir } from '../../playwright.config.ts'
import { runningEmbeddedUrl } from '../../server/embedded-postgres.ts'

/** The newest e-mail to `to` in the e2e server's development outbox (its embedded database). */
export async function latestEmail(to: string, dataDir = e2eDataDir) {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(dataDir) })
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

/** The newest text message to `to` in the e2e server's development SMS outbox. */
export async function latestSms(to: string, dataDir = e2eDataDir) {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(dataDir) })
  await client.connect()
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      const { rows } = await client.query(
        'SELECT text FROM outbox_sms WHERE "to" = $1 ORDER BY created_at DESC LIMIT 1',
        [to],
      )
      if (rows[0]) return { text: rows[0].text as string, code: /\b(\d{6})\b/.exec(rows[0].text)?.[1] ?? '' }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`no text message to ${to}`)
  } finally {
    await client.end()
  }
}

/** Gives an e2e account a role directly in its database (what an admin would do in the panel). */
export async function setRole(email: string, role: 'user' | 'admin' | 'moderator', dataDir = e2eDataDir) {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(dataDir) })
  await client.connect()
  try {
    await client.query('UPDATE users SET role = $2 WHERE email = $1', [email, role])
  } finally {
    await client.end()
  }
}
