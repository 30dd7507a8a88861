import { expect, test, vi } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import { createTestAuth, insertPasswordAccount, TEST_APP_URL } from '#tests/support/accounts.ts'
import * as passwords from './passwords.ts'

// Sign-in must not tell a registered address from an unknown one by its timing. Nearly all of
// a sign-in's time is one argon2id operation (m = 19 MiB, t = 2); better-auth hashes the given
// password when no account matches, to spend the same. This checks that mechanism by counting
// the app's own argon2id calls (the real ones, only observed), which no load on the machine can
// disturb; `npm run bench:timing` measures the resulting times side by side.
vi.mock('./passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./passwords.ts')>()
  return { ...real, hashPassword: vi.fn(real.hashPassword), verifyPassword: vi.fn(real.verifyPassword) }
})

async function setup() {
  const { db, pool } = await createTestDatabase()
  const { auth } = createTestAuth(db)
  await insertPasswordAccount(pool, { email: 'ana@example.com', password: 'correct horse battery' })
  await insertPasswordAccount(pool, { email: 'new@example.com', verified: false })
  let address = 0
  const signIn = async (email: string, password: string) => {
    vi.mocked(passwords.hashPassword).mockClear()
    vi.mocked(passwords.verifyPassword).mockClear()
    const response = await auth.handler(
      new Request(`${TEST_APP_URL}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: TEST_APP_URL,
          'x-client-ip': `198.51.100.${++address}`,
        },
        body: JSON.stringify({ email, password }),
      }),
    )
    return {
      status: response.status,
      body: await response.text(),
      argon2: {
        hash: vi.mocked(passwords.hashPassword).mock.calls.length,
        verify: vi.mocked(passwords.verifyPassword).mock.calls.length,
      },
    }
  }
  return { signIn }
}

test('a sign-in with an unknown address spends one argon2id hash, as a wrong password spends one verification', async () => {
  const { signIn } = await setup()
  const wrongPassword = await signIn('ana@example.com', 'not the password')
  const unknown = await signIn('nobody@example.com', 'not the password')
  expect(wrongPassword).toEqual({ status: 401, body: unknown.body, argon2: { hash: 0, verify: 1 } })
  expect(unknown).toEqual({ status: 401, body: wrongPassword.body, argon2: { hash: 1, verify: 0 } })
})

test('the argon2id work of an unknown-address sign-in is the app’s own hash, at the parameters of stored passwords', async () => {
  const { signIn } = await setup()
  await signIn('nobody@example.com', 'not the password')
  const hashed = vi.mocked(passwords.hashPassword).mock.results[0]
  const digest = (await hashed?.value) as string
  expect(digest).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
})

test('a correct password for an account that has not confirmed its e-mail spends one verification too', async () => {
  const { signIn } = await setup()
  const unverified = await signIn('new@example.com', 'correct horse battery')
  expect(unverified.status).toBe(403)
  expect(unverified.argon2).toEqual({ hash: 0, verify: 1 })
})
