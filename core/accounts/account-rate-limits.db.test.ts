import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { toAPIError } from '#core/accounts/better-auth/errors.ts'
import { type AppError, isAppError } from '#core/shared/errors.ts'
import { users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createTestAuth, TEST_APP_URL } from '#tests/support/accounts.ts'
import { awayFromWindowEdge } from '#tests/support/rate-limit-window.ts'
import {
  limitAttempts,
  PASSWORD_RESET_EMAILS_PER_ACCOUNT,
  SIGN_IN_FAILURES_PER_ACCOUNT,
  VERIFICATION_EMAILS_PER_ACCOUNT,
} from './account-rate-limits.ts'

const APP_URL = TEST_APP_URL
const PASSWORD = 'correct horse battery'

async function setup(rateLimitFactor = 1) {
  await awayFromWindowEdge(SIGN_IN_FAILURES_PER_ACCOUNT.windowSeconds)
  await awayFromWindowEdge(PASSWORD_RESET_EMAILS_PER_ACCOUNT.windowSeconds)
  const { db } = await createTestDatabase()
  const { auth, sent } = createTestAuth(db, { rateLimitFactor })
  let address = 0
  /** Through the HTTP handler, as the server calls it, each time from a new client address. */
  const post = async (path: string, body: unknown) => {
    const response = await auth.handler(
      new Request(`${APP_URL}/api/auth${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: APP_URL,
          'x-client-ip': `203.0.113.${++address}`,
        },
        body: JSON.stringify(body),
      }),
    )
    return { status: response.status, headers: response.headers, body: await response.text() }
  }
  const signIn = (email: string, password: string) => post('/sign-in/email', { email, password })
  const verifiedAccount = async (email: string) => {
    await auth.api.signUpEmail({ body: { email, password: PASSWORD, name: 'Ana' } })
    await db.update(users).set({ emailVerified: true }).where(eq(users.email, email))
    sent.length = 0
  }
  return { db, auth, sent, post, signIn, verifiedAccount }
}

const { limit } = SIGN_IN_FAILURES_PER_ACCOUNT

test('after 10 wrong passwords from 10 addresses the account answers 429 with Retry-After, even to the right password; other accounts still sign in', async () => {
  const { signIn, verifiedAccount } = await setup()
  await verifiedAccount('ana@example.com')
  await verifiedAccount('luis@example.com')
  for (let attempt = 0; attempt < limit; attempt++) {
    expect((await signIn('ana@example.com', `wrong password ${attempt}`)).status).toBe(401)
  }
  const locked = await signIn('ana@example.com', PASSWORD)
  expect(locked.status).toBe(429)
  const retryAfter = Number(locked.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_FAILURES_PER_ACCOUNT.windowSeconds)
  expect(locked.headers.getSetCookie()).toEqual([])
  // The same address in other spellings is the same account.
  expect((await signIn('  ANA@Example.com', PASSWORD)).status).toBe(429)
  expect((await signIn('luis@example.com', PASSWORD)).status).toBe(200)
})

test('an address without an account is limited after the same count, with the same answer', async () => {
  const { signIn, verifiedAccount } = await setup()
  await verifiedAccount('ana@example.com')
  const answers = { existing: [] as number[], unknown: [] as number[] }
  for (let attempt = 0; attempt <= limit; attempt++) {
    answers.existing.push((await signIn('ana@example.com', 'wrong password')).status)
    answers.unknown.push((await signIn('ghost@example.com', 'wrong password')).status)
  }
  expect(answers.existing).toEqual([...Array(limit).fill(401), 429])
  expect(answers.unknown).toEqual(answers.existing)
  const existing = await signIn('ana@example.com', 'wrong password')
  const unknown = await signIn('ghost@example.com', 'wrong password')
  expect(unknown.status).toBe(existing.status)
  expect(unknown.body).toBe(existing.body)
  expect(JSON.parse(existing.body)).toEqual({
    code: 'TOO_MANY_REQUESTS',
    message: 'Too many requests. Please try again later.',
  })
})

test('sign-ins with the right password do not use up the budget: only wrong ones count', async () => {
  const { signIn, verifiedAccount } = await setup()
  await verifiedAccount('ana@example.com')
  for (let attempt = 0; attempt < limit - 1; attempt++) {
    expect((await signIn('ana@example.com', 'wrong password')).status).toBe(401)
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    expect((await signIn('ana@example.com', PASSWORD)).status).toBe(200)
  }
  expect((await signIn('ana@example.com', 'wrong password')).status).toBe(401)
  expect((await signIn('ana@example.com', 'wrong password')).status).toBe(429)
})

test('password-reset e-mails: 3 per account per hour, then the same answer and no e-mail', async () => {
  const { post, sent, verifiedAccount } = await setup()
  await verifiedAccount('ana@example.com')
  const existing = []
  const unknown = []
  for (let attempt = 0; attempt < PASSWORD_RESET_EMAILS_PER_ACCOUNT.limit + 2; attempt++) {
    existing.push(await post('/request-password-reset', { email: 'ana@example.com', redirectTo: '/' }))
    unknown.push(await post('/request-password-reset', { email: 'ghost@example.com', redirectTo: '/' }))
  }
  for (const answer of [...existing, ...unknown]) {
    expect(answer.status).toBe(200)
    expect(answer.body).toBe(existing[0]?.body)
  }
  expect(sent.map((message) => `${message.kind} ${message.to}`)).toEqual(
    Array(PASSWORD_RESET_EMAILS_PER_ACCOUNT.limit).fill('reset-password ana@example.com'),
  )
})

test('verification e-mails: 3 per address per hour, whichever flow asks for them', async () => {
  const { post, sent } = await setup()
  const signUp = await post('/sign-up/email', { email: 'new@example.com', password: PASSWORD, name: 'New' })
  expect(signUp.status).toBe(200)
  // Signing in before verifying sends a fresh link, and so does "send it again".
  const signIns = [await post('/sign-in/email', { email: 'new@example.com', password: PASSWORD })]
  signIns.push(await post('/sign-in/email', { email: 'new@example.com', password: PASSWORD }))
  const again = [
    await post('/send-verification-email', { email: 'new@example.com' }),
    await post('/send-verification-email', { email: 'new@example.com' }),
  ]
  for (const answer of signIns) {
    expect(answer.status).toBe(403)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' })
  }
  for (const answer of again) expect(answer).toMatchObject({ status: 200, body: '{"status":true}' })
  expect(sent.map((message) => `${message.kind} ${message.to}`)).toEqual(
    Array(VERIFICATION_EMAILS_PER_ACCOUNT.limit).fill('verify-email new@example.com'),
  )
})

test('AUTH_RATE_LIMIT_FACTOR multiplies the per-account limits', async () => {
  const { post, sent, verifiedAccount } = await setup(2)
  await verifiedAccount('ana@example.com')
  for (let attempt = 0; attempt < PASSWORD_RESET_EMAILS_PER_ACCOUNT.limit * 2 + 1; attempt++) {
    await post('/request-password-reset', { email: 'ana@example.com', redirectTo: '/' })
  }
  expect(sent).toHaveLength(PASSWORD_RESET_EMAILS_PER_ACCOUNT.limit * 2)
})

test('limitAttempts: a reusable per-key limit (e.g. MFA codes) that answers 429 with Retry-After', async () => {
  const { db } = await createTestDatabase()
  const rule = { limit: 2, windowSeconds: 300 }
  await limitAttempts(db, 'mfa:user-1', rule)
  await limitAttempts(db, 'mfa:user-1', rule)
  const refused = await limitAttempts(db, 'mfa:user-1', rule).catch((error: unknown) => error)
  // Core throws the domain's rate_limited; the better-auth adapter answers it as 429 + Retry-After.
  expect(isAppError(refused, 'rate_limited')).toBe(true)
  const answered = toAPIError(refused as AppError)
  expect(answered).toMatchObject({ statusCode: 429, body: { code: 'TOO_MANY_REQUESTS' } })
  const retryAfter = Number((answered as { headers: Record<string, string> }).headers['Retry-After'])
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(300)
  await expect(limitAttempts(db, 'mfa:user-2', rule)).resolves.toBeUndefined()
})
