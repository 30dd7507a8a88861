import { expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import {
  createTestAuth,
  insertPasswordAccount,
  insertSession,
  SESSION_COOKIE,
  signedSessionCookie,
  TEST_AUTH_SECRET,
} from '#tests/support/accounts.ts'

// The browser tests sign in by writing a session and its signed cookie themselves
// (tests/e2e/fixtures.ts `signInAs`). This holds them to what better-auth accepts, so an upgrade
// that changes the cookie's format fails here, by name, and not as many signed-out pages.

test('a session written by the test helpers is one better-auth reads from its signed cookie', async () => {
  const { db, pool } = await createTestDatabase()
  const { auth } = createTestAuth(db)
  const account = await insertPasswordAccount(pool, {
    email: 'ana@example.com',
    name: 'Ana',
    role: 'moderator',
  })
  const token = await insertSession(pool, account.id)

  const session = await auth.api.getSession({
    headers: new Headers({ cookie: `${SESSION_COOKIE}=${signedSessionCookie(token, TEST_AUTH_SECRET)}` }),
  })
  expect(session?.user).toMatchObject({ id: account.id, email: 'ana@example.com', role: 'moderator' })
  expect(session?.session.token).toBe(token)
})

test('the same token signed with another secret, or not signed, is signed out', async () => {
  const { db, pool } = await createTestDatabase()
  const { auth } = createTestAuth(db)
  const account = await insertPasswordAccount(pool, { email: 'luis@example.com' })
  const token = await insertSession(pool, account.id)

  for (const value of [signedSessionCookie(token, 'another-secret-another-secret-another-1'), token]) {
    const session = await auth.api.getSession({
      headers: new Headers({ cookie: `${SESSION_COOKIE}=${value}` }),
    })
    expect(session).toBeNull()
  }
})
