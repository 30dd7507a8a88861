import { randomBytes, randomUUID } from 'node:crypto'
import { beforeAll, expect, test } from 'vitest'
import { SIGN_IN_FAILURES_PER_ACCOUNT } from '#core/accounts/account-rate-limits.ts'
import { ADMIN_ENDPOINTS } from '#core/accounts/better-auth/auth.ts'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { awayFromWindowEdge } from '#tests/support/rate-limit-window.ts'
import { type ServerProcess, startAppOnTestDatabase } from './server-process.ts'

// Findings of a probe of every route and endpoint, each refused now.
let server: ServerProcess
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']

beforeAll(async () => {
  // Behind one trusted proxy, as deployed: each call below names its own client address.
  ;({ server, database } = await startAppOnTestDatabase({ TRUST_PROXY: '1' }))
})

let address = 0
/** Each call from its own address (the server trusts one proxy), so per-address limits stay out of the way. */
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: server.url,
      'x-forwarded-for': `198.51.100.${(address++ % 250) + 1}`,
      ...headers,
    },
    body: JSON.stringify(body),
  })

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ')

async function signedIn(email: string) {
  const account = await insertPasswordAccount(database.pool, { email })
  const response = await post('/api/auth/sign-in/email', { email, password: account.password })
  expect(response.status).toBe(200)
  return { ...account, cookie: cookieOf(response), body: (await response.json()) as Record<string, unknown> }
}

test("better-auth's admin endpoints do not exist: staff act through our services and their audit trail", async () => {
  const admin = await signedIn('probe-admin@example.com')
  await database.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.id])
  const target = await insertPasswordAccount(database.pool, { email: 'probe-target@example.com' })
  for (const path of ADMIN_ENDPOINTS) {
    const response = await post(
      `/api/auth${path}`,
      { userId: target.id, role: ['admin', 'user'] },
      {
        cookie: admin.cookie,
      },
    )
    expect(response.status, path).toBe(404)
  }
  const roles = await database.pool.query('SELECT id, role FROM users WHERE id = ANY($1)', [
    [admin.id, target.id],
  ])
  expect(Object.fromEntries(roles.rows.map((row) => [row.id, row.role]))).toEqual({
    [admin.id]: 'admin',
    [target.id]: 'user',
  })
})

test('sign-up and update-user take a name of at most 100 characters, a language we speak and no picture', async () => {
  const signUp = (fields: Record<string, unknown>) =>
    post('/api/auth/sign-up/email', {
      email: `${randomUUID()}@example.com`,
      password: 'correct horse battery',
      name: 'Ana',
      ...fields,
    })
  for (const fields of [
    { name: 'x'.repeat(101) },
    { image: 'javascript:alert(1)' },
    { language: 'klingon' },
    { name: 'Ana\u0007' },
  ]) {
    const response = await signUp(fields)
    expect(response.status, JSON.stringify(fields).slice(0, 60)).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'INVALID_PROFILE_INPUT' })
  }
  const stored = await database.pool.query(
    `SELECT count(*)::int AS n FROM users WHERE name = 'Ana' OR length(name) > 100`,
  )
  expect(stored.rows[0].n).toBe(0)

  const member = await signedIn('probe-profile@example.com')
  for (const body of [
    { name: null },
    { name: 'y'.repeat(90_000) },
    { image: 'javascript:x' },
    { language: 'fr' },
  ]) {
    const response = await post('/api/auth/update-user', body, { cookie: member.cookie })
    expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400)
  }
  const row = await database.pool.query('SELECT name, image, language FROM users WHERE id = $1', [member.id])
  expect(row.rows[0]).toEqual({ name: 'Test User', image: null, language: 'es' })
  expect(
    (await post('/api/auth/update-user', { name: 'Ana María', language: 'en' }, { cookie: member.cookie }))
      .status,
  ).toBe(200)
})

test('session tokens travel in their cookie only, never in a JSON answer', async () => {
  const member = await signedIn('probe-token@example.com')
  expect(JSON.stringify(member.body)).not.toMatch(/"token"/)
  const session = await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie: member.cookie } })
  const text = await session.text()
  expect(text).toContain('probe-token@example.com')
  expect(text).not.toMatch(/"token"/)
})

test('a bearer JWT dies with its session, and the role it reports is the current one', async () => {
  const member = await signedIn('probe-jwt@example.com')
  const { token } = (await (
    await fetch(`${server.url}/api/auth/token`, { headers: { cookie: member.cookie } })
  ).json()) as {
    token: string
  }
  const me = () => fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })
  expect(await (await me()).json()).toMatchObject({ email: 'probe-jwt@example.com', role: 'user' })
  await database.pool.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [member.id])
  expect(await (await me()).json()).toMatchObject({ role: 'moderator' })
  expect((await post('/auth/sign-out', {}, { cookie: member.cookie })).status).toBeLessThan(500)
  await post('/api/auth/sign-out', {}, { cookie: member.cookie })
  const after = await me()
  expect(after.status).toBe(401)
  expect(await after.json()).toMatchObject({ error: { message: 'Session ended' } })
})

async function resetLink(userId: string) {
  const token = randomBytes(16).toString('hex')
  await database.pool.query(
    `INSERT INTO verifications (id, identifier, value, expires_at, created_at, updated_at) VALUES ($1, $2, $3, now() + interval '1 hour', now(), now())`,
    [randomUUID(), `reset-password:${token}`, userId],
  )
  return token
}

test('a used reset link ends the older ones, and lifts the sign-in lock that wrong passwords built', async () => {
  const owner = await insertPasswordAccount(database.pool, { email: 'probe-reset@example.com' })
  // All the guesses in one 15-minute window: a run across a window's edge (it happened at
  // 00:00 UTC) would count them in two and never lock.
  await awayFromWindowEdge(SIGN_IN_FAILURES_PER_ACCOUNT.windowSeconds)
  // Someone else's wrong guesses, from several addresses, lock the account…
  for (let attempt = 0; attempt < SIGN_IN_FAILURES_PER_ACCOUNT.limit; attempt++) {
    await post('/api/auth/sign-in/email', { email: owner.email, password: `wrong ${attempt}` })
  }
  const locked = await post('/api/auth/sign-in/email', { email: owner.email, password: owner.password })
  expect(locked.status).toBe(429)
  const lockRows = await database.pool.query(
    `SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE 'account:sign-in:%' AND count > 0`,
  )
  expect(lockRows.rows[0].n).toBeGreaterThan(0)
  // …the owner asks for links twice and uses the newer one.
  const older = await resetLink(owner.id)
  const newer = await resetLink(owner.id)
  expect(
    (await post('/api/auth/reset-password', { token: newer, newPassword: 'a brand new passphrase' })).status,
  ).toBe(200)
  const stale = await post('/api/auth/reset-password', {
    token: older,
    newPassword: 'an attacker passphrase',
  })
  expect(stale.status).toBe(400)
  const signIn = await post('/api/auth/sign-in/email', {
    email: owner.email,
    password: 'a brand new passphrase',
  })
  expect(signIn.status).toBe(200)
})
