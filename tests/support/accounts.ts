import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { type AuthOptions, createAuth } from '#core/accounts/better-auth/auth.ts'
import { hashPassword } from '#core/accounts/passwords.ts'
import type { Database } from '#db/client.ts'

/**
 * An e-mail + password account written straight into the database (with the app's own argon2id
 * hash), so a test spends its HTTP requests, and the per-address limits, on what it tests.
 */
export async function insertPasswordAccount(
  pool: pg.Pool,
  {
    email,
    password = 'correct horse battery',
    name = 'Test User',
    verified = true,
    language = 'es',
  }: { email: string; password?: string; name?: string; verified?: boolean; language?: 'es' | 'en' },
) {
  const id = `user-${randomUUID()}`
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role, language) VALUES ($1, $2, $3, $4, now(), now(), 'user', $5)`,
    [id, name, email, verified, language],
  )
  await pool.query(
    `INSERT INTO accounts (id, account_id, provider_id, user_id, password, created_at, updated_at) VALUES ($1, $2, 'credential', $2, $3, now(), now())`,
    [`account-${randomUUID()}`, id, await hashPassword(password)],
  )
  return { id, email, password }
}

export const TEST_APP_URL = 'http://localhost:3000'

/**
 * better-auth as the app configures it, on a test database, for tests that call it in-process
 * (`auth.api`, or `auth.handler` with requests). E-mails are kept in `sent` instead of going out.
 */
export function createTestAuth(db: Database, overrides: Partial<AuthOptions> = {}) {
  const sent: Parameters<AuthOptions['sendAccountEmail']>[0][] = []
  const auth = createAuth({
    db,
    appUrl: TEST_APP_URL,
    secret: 'test-secret-test-secret-test-secret-0123',
    appName: 'storefront',
    adminEmails: [],
    google: null,
    sendAccountEmail: async (message) => {
      sent.push(message)
    },
    ...overrides,
  })
  return { auth, sent }
}
