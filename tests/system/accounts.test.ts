import { beforeAll, expect, test } from 'vitest'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { countJobs, waitForJobsIdle } from '#tests/support/jobs.ts'
import { type ServerProcess, startAppOnTestDatabase } from './server-process.ts'

// Accounts through the running server: tokens for other clients and the security baseline.
let server: ServerProcess
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']

beforeAll(async () => {
  ;({ server, database } = await startAppOnTestDatabase())
})

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: server.url, ...headers },
  body: JSON.stringify(body),
})

/**
 * A verified account made directly in the database (the app's own argon2id hash), so only the
 * sign-in under test goes through HTTP and the per-address limits.
 */
async function verifiedUser(email: string, password = 'correct horse battery') {
  await insertPasswordAccount(database.pool, { email, password, name: 'Token User' })
  const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, json({ email, password }))
  const cookie = signIn.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ')
  return { signIn, cookie }
}

// First: sign-ups are limited per address too, and later tests here sign up several users.
test('sign-up answers an existing e-mail exactly like a new one (no enumeration)', async () => {
  const body = { password: 'correct horse battery', name: 'Twice' }
  const first = await fetch(
    `${server.url}/api/auth/sign-up/email`,
    json({ ...body, email: 'twice@example.com' }),
  )
  const again = await fetch(
    `${server.url}/api/auth/sign-up/email`,
    json({ ...body, email: 'twice@example.com' }),
  )
  expect(again.status).toBe(first.status)
  expect(Object.keys((await again.json()) as object).sort()).toEqual(
    Object.keys((await first.json()) as object).sort(),
  )
})

test('a session gets a JWT that /api/v1/me accepts; JWKS is published; bad tokens get the named errors', async () => {
  const { cookie } = await verifiedUser('token@example.com')
  const tokenResponse = await fetch(`${server.url}/api/auth/token`, { headers: { cookie } })
  const { token } = (await tokenResponse.json()) as { token: string }
  expect(token.split('.')).toHaveLength(3)

  const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as {
    keys: { kid: string }[]
  }
  expect(jwks.keys.length).toBeGreaterThan(0)

  const me = await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })
  expect(me.status).toBe(200)
  expect(await me.json()).toMatchObject({ email: 'token@example.com', name: 'Token User', role: 'user' })

  const [header, payload] = token.split('.')
  const forged = await fetch(`${server.url}/api/v1/me`, {
    headers: { authorization: `Bearer ${header}.${payload}.${'A'.repeat(86)}` },
  })
  expect(forged.status).toBe(401)
  expect(await forged.json()).toMatchObject({ error: { message: 'Invalid JWT signature' } })

  const foreignHeader = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'not-ours' })).toString('base64url')
  const unknownKey = await fetch(`${server.url}/api/v1/me`, {
    headers: { authorization: `Bearer ${foreignHeader}.${payload}.sig` },
  })
  expect(await unknownKey.json()).toMatchObject({
    error: { message: 'No matching signing key found in JWKS' },
  })

  expect((await fetch(`${server.url}/api/v1/me`)).status).toBe(401)
})

test('role assignment: anonymous, user and moderator refused; an admin assigns, and open sessions see it', async () => {
  const post = (cookie: string | null, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/v1/roles`, json(body, { ...(cookie ? { cookie } : {}), ...headers }))

  const member = await verifiedUser('member@example.com')
  const memberId = (await database.pool.query(`SELECT id FROM users WHERE email = 'member@example.com'`))
    .rows[0].id
  expect((await post(null, { userId: memberId, role: 'admin' })).status).toBe(401)

  const selfPromotion = await post(
    member.cookie,
    { userId: memberId, role: 'admin' },
    { cookie: `${member.cookie}; lang=en` },
  )
  expect(selfPromotion.status).toBe(403)
  expect(await selfPromotion.json()).toMatchObject({
    error: { title: 'Permission denied', message: 'Only admins can assign roles' },
  })

  const boss = await verifiedUser('boss@example.com')
  await database.pool.query(`UPDATE users SET role = 'admin' WHERE email = 'boss@example.com'`)
  expect((await post(boss.cookie, { userId: memberId, role: 'teapot' })).status).toBe(400)
  expect(
    (await post(boss.cookie, { userId: memberId, role: 'moderator' }, { origin: 'https://evil.example' }))
      .status,
  ).toBe(403)

  const assigned = await post(
    boss.cookie,
    { userId: memberId, role: 'moderator' },
    { cookie: `${boss.cookie}; lang=es` },
  )
  expect(assigned.status).toBe(200)
  expect(await assigned.json()).toMatchObject({
    title: 'Rol asignado',
    message: 'Rol del usuario actualizado a moderador',
  })

  // The member's existing session sees the new role on its next request.
  const session = await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie: member.cookie } })
  expect(await session.json()).toMatchObject({ user: { role: 'moderator' } })
  const moderatorTries = await post(member.cookie, { userId: memberId, role: 'admin' })
  expect(moderatorTries.status).toBe(403)
})

test('the session cookie is HttpOnly and SameSite=Lax', async () => {
  const { signIn } = await verifiedUser('cookie@example.com')
  const session = signIn.headers.getSetCookie().find((value) => value.includes('session_token'))
  expect(session).toMatch(/HttpOnly/i)
  expect(session).toMatch(/SameSite=Lax/i)
})

test('a sign-in from another origin is refused', async () => {
  const response = await fetch(
    `${server.url}/api/auth/sign-in/email`,
    json(
      { email: 'cookie@example.com', password: 'correct horse battery' },
      { origin: 'https://evil.example' },
    ),
  )
  expect(response.status).toBe(403)
  expect(response.headers.getSetCookie().some((value) => value.includes('session_token'))).toBe(false)
})

test('sign-out and the consent form refuse posts not from our own origin; signed-in answers are private', async () => {
  const { cookie } = await verifiedUser('csrf@example.com')
  const port = Number(new URL(server.url).port)
  const form = (pathname: string, origin: string | null, fields: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie,
        ...(origin === null ? {} : { origin }),
      },
      body: new URLSearchParams(fields),
    })
  // Another site, a sandboxed or privacy-stripped page, the same site on another port, none at all.
  for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${port + 1}`, null]) {
    const signOut = await form('/auth/sign-out', origin, {})
    expect(signOut.status, `sign-out from ${origin}`).toBe(403)
    expect(signOut.headers.getSetCookie(), `sign-out from ${origin}`).toEqual([])
    const consent = await form('/consent', origin, { choice: 'granted', returnTo: '/' })
    expect(consent.status, `consent from ${origin}`).toBe(403)
    expect(consent.headers.getSetCookie(), `consent from ${origin}`).toEqual([])
  }
  // The session survived every refused sign-out.
  const session = await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })
  expect(((await session.json()) as { user?: { email: string } } | null)?.user?.email).toBe(
    'csrf@example.com',
  )
  // What a signed-in visitor gets is theirs alone: private, no-store and Vary: Cookie, data
  // downloads too. (One session for both checks: sign-ins here are limited per address.)
  for (const pathname of [
    '/account/export',
    '/account/export.data',
    '/services',
    '/services.data',
    '/dashboard',
  ]) {
    const response = await fetch(`${server.url}${pathname}`, { headers: { cookie }, redirect: 'manual' })
    expect(response.status, pathname).toBeLessThan(400)
    expect(response.headers.get('cache-control'), pathname).toBe('private, no-store')
    expect(response.headers.get('vary') ?? '', pathname).toMatch(/\bCookie\b/i)
    expect(response.headers.get('x-page-cache'), pathname).toBeNull()
  }
  const download = await fetch(`${server.url}/account/export`, { headers: { cookie } })
  expect(((await download.json()) as { profile?: { email?: string } }).profile?.email).toBe(
    'csrf@example.com',
  )
  // Anonymous pages depend on cookies too (language, currency, consent).
  const anonymous = await fetch(`${server.url}/services`)
  expect(anonymous.headers.get('vary') ?? '').toMatch(/\bCookie\b/i)
  expect(anonymous.headers.get('cache-control')).not.toMatch(/private|no-store/)
  // From our own origin both work.
  const consent = await form('/consent', server.url, { choice: 'granted', returnTo: '/services' })
  expect(consent.status).toBe(302)
  expect(consent.headers.get('location')).toBe('/services')
  const signOut = await form('/auth/sign-out', server.url, {})
  expect(signOut.status).toBe(302)
  expect(signOut.headers.get('location')).toBe('/')
  const after = await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })
  expect(await after.json()).toBeNull()
})

test('sign-in is limited to 5 a minute per address, and a spoofed client-IP header does not reset it', async () => {
  const attempt = (headers: Record<string, string> = {}) =>
    fetch(
      `${server.url}/api/auth/sign-in/email`,
      json({ email: 'limit@example.com', password: 'wrong password 1' }, headers),
    )
  // Earlier tests here signed in from this address too: count until the limit answers.
  const statuses: number[] = []
  while (statuses.at(-1) !== 429 && statuses.length < 10) statuses.push((await attempt()).status)
  expect(statuses.at(-1)).toBe(429)
  expect(statuses.length).toBeLessThanOrEqual(6)
  expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true)
  expect((await attempt({ 'x-client-ip': '203.0.113.9', 'x-forwarded-for': '203.0.113.9' })).status).toBe(429)
})

test('the forgot and reset forms answer bad input with 400 and translated messages, writing nothing', async () => {
  const form = (pathname: string, fields: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie: 'lang=en' },
      body: new URLSearchParams(fields),
    })
  const outboxCount = async () =>
    (await database.pool.query(`SELECT count(*)::int AS n FROM outbox_emails`)).rows[0].n
  // E-mails of earlier tests are sent by a worker just after their answers: let them land first.
  await waitForJobsIdle(database.pool, 'email.send')
  const before = await outboxCount()
  const jobsBefore = await countJobs(database.pool, 'email.send')
  const empty = await form('/forgot-password', { email: '' })
  expect(empty.status).toBe(400)
  expect(await empty.text()).toContain('This field is required.')
  const hostile = await form('/forgot-password', { email: '<script>x</script>' })
  expect(hostile.status).toBe(400)
  const html = await hostile.text()
  expect(html).toContain('Enter a valid e-mail address.')
  expect(html).not.toContain('<script>x</script>')

  const mismatch = await form('/auth/reset-password?token=anything', {
    token: 'anything',
    password: 'long enough 1',
    confirmPassword: 'long enough 2',
  })
  expect(mismatch.status).toBe(400)
  expect(await mismatch.text()).toContain('Passwords don&#x27;t match')
  const short = await form('/auth/reset-password?token=anything', {
    token: 'anything',
    password: 'short',
    confirmPassword: 'short',
  })
  expect(await short.text()).toContain('Password too short: use at least 8 characters.')
  const badToken = await form('/auth/reset-password?token=nope', {
    token: 'nope',
    password: 'long enough 1',
    confirmPassword: 'long enough 1',
  })
  expect(badToken.status).toBe(302)
  expect(badToken.headers.get('location')).toBe('/auth?reset=invalid')
  expect(await countJobs(database.pool, 'email.send')).toBe(jobsBefore)
  expect(await outboxCount()).toBe(before)
})

test('over the password-reset limit, the form says "Password reset failed" and why, in the page language', async () => {
  const post = (email: string, lang: string) =>
    fetch(`${server.url}/forgot-password`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: server.url,
        cookie: `lang=${lang}`,
      },
      body: new URLSearchParams({ email }),
    })
  // Three a minute per address: count until the limit answers.
  const statuses: number[] = []
  while (statuses.at(-1) !== 429 && statuses.length < 6)
    statuses.push((await post(`reset${statuses.length}@example.com`, 'en')).status)
  expect(statuses.slice(0, -1).every((status) => status === 302)).toBe(true)
  const limited = await post('another@example.com', 'en')
  expect(limited.status).toBe(429)
  const html = await limited.text()
  expect(html).toContain('Password reset failed')
  expect(html).toContain('Too many attempts. Please wait a few minutes and try again.')
  const spanish = await (await post('otra@example.com', 'es')).text()
  expect(spanish).toContain('No se pudo restablecer la contraseña')
})

test('account pages send no Referer to other sites, yet keep Origin on their own form posts (no JavaScript needed)', async () => {
  for (const pathname of ['/auth', '/auth/reset-password?token=anything']) {
    const response = await fetch(`${server.url}${pathname}`, { redirect: 'manual' })
    // `no-referrer` would make browsers post `Origin: null`, which the same-origin check refuses.
    expect(response.headers.get('referrer-policy'), pathname).toBe('same-origin')
    expect(response.headers.get('cache-control'), pathname).toBe('private, no-store')
  }
  const refused = await fetch(`${server.url}/auth`, {
    method: 'POST',
    headers: { origin: 'null', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'signin', email: 'a@example.com', password: 'x' }),
  })
  expect(refused.status).toBe(403)
})
