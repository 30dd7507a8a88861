import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import type pg from 'pg'
import { type AuthOptions, createAuth } from '#core/accounts/better-auth/auth.ts'
import { hashPassword } from '#core/accounts/passwords.ts'
import type { Database } from '#db/client.ts'

/**
 * An e-mail + password account written straight into the database (with the app's own argon2id
 * hash), so a test spends its HTTP requests, and the per-address limits, on what it tests.
 */
export async function insertPasswordAccount(
  pool: Pick<pg.Pool | pg.Client, 'query'>,
  {
    email,
    password = 'correct horse battery',
    name = 'Test User',
    verified = true,
    language = 'es',
    role = 'user',
  }: {
    email: string
    password?: string
    name?: string
    verified?: boolean
    language?: 'es' | 'en'
    role?: 'user' | 'admin' | 'moderator'
  },
) {
  const id = `user-${randomUUID()}`
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role, language) VALUES ($1, $2, $3, $4, now(), now(), $6, $5)`,
    [id, name, email, verified, language, role],
  )
  await pool.query(
    `INSERT INTO accounts (id, account_id, provider_id, user_id, password, created_at, updated_at) VALUES ($1, $2, 'credential', $2, $3, now(), now())`,
    [`account-${randomUUID()}`, id, await hashPassword(password)],
  )
  return { id, email, password }
}

/** better-auth's session cookie on plain http (`__Secure-` is prefixed on https). */
export const SESSION_COOKIE = 'better-auth.session_token'

/**
 * A session row for `userId`, as better-auth writes one at sign-in (a week long, aal1 unless
 * told). Returns the token; the browser needs it signed (`signedSessionCookie`).
 */
export async function insertSession(
  pool: Pick<pg.Pool | pg.Client, 'query'>,
  userId: string,
  { aal = null, userAgent = null }: { aal?: 'aal2' | null; userAgent?: string | null } = {},
) {
  const token = randomBytes(24).toString('base64url')
  await pool.query(
    `INSERT INTO sessions (id, token, user_id, expires_at, created_at, updated_at, aal, user_agent)
     VALUES ($1, $2, $3, now() + interval '7 days', now(), now(), $4, $5)`,
    [`session-${randomUUID()}`, token, userId, aal, userAgent],
  )
  return token
}

/**
 * The session cookie's value as better-auth sets it (better-call's signed cookie):
 * `token.base64(HMAC-SHA256(secret, token))`, URI-encoded. A wrong secret reads as signed out.
 */
export function signedSessionCookie(token: string, secret: string) {
  const signature = createHmac('sha256', secret).update(token).digest('base64')
  return encodeURIComponent(`${token}.${signature}`)
}

export const TEST_APP_URL = 'http://localhost:3000'
export const TEST_AUTH_SECRET = 'test-secret-test-secret-test-secret-0123'

/**
 * better-auth as the app configures it, on a test database, for tests that call it in-process
 * (`auth.api`, or `auth.handler` with requests). E-mails are kept in `sent` instead of going out.
 */
export function createTestAuth(db: Database, overrides: Partial<AuthOptions> = {}) {
  const sent: Parameters<AuthOptions['sendAccountEmail']>[0][] = []
  const auth = createAuth({
    db,
    appUrl: TEST_APP_URL,
    secret: TEST_AUTH_SECRET,
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
