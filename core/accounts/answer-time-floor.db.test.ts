import { expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import { createTestAuth, TEST_APP_URL } from '#tests/support/accounts.ts'
import { ANSWER_TIME_FLOORS_MS } from './answer-time-floor.ts'

const APP_URL = TEST_APP_URL

test('sign-up and password-reset requests answer no sooner than their floor, whatever the address and the outcome', async () => {
  const { db } = await createTestDatabase()
  const { auth } = createTestAuth(db)
  let address = 0
  const timed = async (path: string, body: unknown) => {
    const started = performance.now()
    const response = await auth.handler(
      new Request(`${APP_URL}/api/auth${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: APP_URL,
          'x-client-ip': `198.51.100.${++address}`,
        },
        body: JSON.stringify(body),
      }),
    )
    return { status: response.status, ms: performance.now() - started }
  }
  const signUp = ANSWER_TIME_FLOORS_MS['/sign-up/email'] ?? 0
  const reset = ANSWER_TIME_FLOORS_MS['/request-password-reset'] ?? 0
  const body = { name: 'Ana', password: 'correct horse battery' }
  for (const answer of [
    await timed('/sign-up/email', { ...body, email: 'ana@example.com' }),
    await timed('/sign-up/email', { ...body, email: 'ana@example.com' }),
  ]) {
    expect(answer.status).toBe(200)
    expect(answer.ms).toBeGreaterThanOrEqual(signUp - 1)
  }
  // Refused input is held as well.
  const short = await timed('/sign-up/email', { ...body, password: 'short', email: 'luis@example.com' })
  expect(short.status).toBe(400)
  expect(short.ms).toBeGreaterThanOrEqual(signUp - 1)
  for (const email of ['ana@example.com', 'ghost@example.com']) {
    const answer = await timed('/request-password-reset', { email, redirectTo: '/' })
    expect(answer.status).toBe(200)
    expect(answer.ms).toBeGreaterThanOrEqual(reset - 1)
  }
})
