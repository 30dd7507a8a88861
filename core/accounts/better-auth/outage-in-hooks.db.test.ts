import { eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createTestAuth, TEST_APP_URL } from '#tests/support/accounts.ts'

// The database going away inside one of our better-auth hooks, after the endpoint has run
// (docs/decisions/015-database-outage.md). PostgreSQL itself raises what a lost connection
// raises (SQLSTATE 57P01) at that one statement, so the moment is exact.

const PASSWORD = 'correct horse battery'

async function setup() {
  const { db } = await createTestDatabase()
  const { auth } = createTestAuth(db)
  await db.execute(sql`
    CREATE FUNCTION outage() RETURNS boolean LANGUAGE plpgsql STABLE AS $$
    BEGIN
      RAISE EXCEPTION 'terminating connection due to administrator command' USING ERRCODE = '57P01';
    END $$`)
  await auth.api.signUpEmail({ body: { email: 'ana@example.com', password: PASSWORD, name: 'Ana' } })
  await db.update(users).set({ emailVerified: true }).where(eq(users.email, 'ana@example.com'))
  const signIn = async (password: string) => {
    const response = await auth.handler(
      new Request(`${TEST_APP_URL}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_APP_URL, 'x-client-ip': '203.0.113.9' },
        body: JSON.stringify({ email: 'ana@example.com', password }),
      }),
    )
    const sessionCookies = response.headers
      .getSetCookie()
      .filter((cookie) => cookie.includes('session_token='))
    return { status: response.status, retryAfter: response.headers.get('retry-after'), sessionCookies }
  }
  return { db, signIn }
}

test('a sign-in whose attempt cannot be given back (the database went away) still answers, and signs in', async () => {
  const { db, signIn } = await setup()
  // Counting an attempt still works; giving it back (count - 1) fails as a lost connection does.
  await db.execute(sql`
    CREATE FUNCTION outage_on_give_back() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.count < OLD.count THEN PERFORM outage(); END IF;
      RETURN NEW;
    END $$`)
  await db.execute(
    sql`CREATE TRIGGER outage_on_give_back BEFORE UPDATE ON rate_limits FOR EACH ROW EXECUTE FUNCTION outage_on_give_back()`,
  )

  const earlier = (await db.execute<{ key: string }>(sql`SELECT key FROM rate_limits`)).rows.map(
    (row) => row.key,
  )
  const answer = await signIn(PASSWORD)
  expect(answer.status).toBe(200)
  expect(answer.sessionCookies).toHaveLength(1)
  expect(answer.sessionCookies[0]).not.toMatch(/Max-Age=0/)
  // The give-back was tried and refused: this sign-in's attempt stays counted.
  const rows = (await db.execute<{ key: string; count: number }>(sql`SELECT key, count FROM rate_limits`))
    .rows
  expect(rows.filter((row) => !earlier.includes(row.key)).map((row) => row.count)).toEqual([1])
})

test('a sign-in whose second-factor check cannot read the factors (the database went away) is a 503 without a session cookie', async () => {
  const { db, signIn } = await setup()
  // Reading the account's factors fails as a lost connection does.
  await db.execute(sql`ALTER TABLE auth_factors RENAME TO auth_factors_stored`)
  await db.execute(sql`CREATE VIEW auth_factors AS SELECT * FROM auth_factors_stored WHERE outage()`)

  const answer = await signIn(PASSWORD)
  expect(answer.status).toBe(503)
  expect(answer.retryAfter).toBe('5')
  // The token the endpoint had set does not leave at all, not even before an expiring entry:
  // anything reading the raw headers could replay it.
  expect(answer.sessionCookies.length).toBeGreaterThan(0)
  expect(answer.sessionCookies.filter((cookie) => !/session_token=;/.test(cookie))).toEqual([])
})
