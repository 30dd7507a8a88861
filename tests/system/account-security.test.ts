import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { createEmailVerificationToken } from 'better-auth/api'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { SIGN_IN_FAILURES_PER_ACCOUNT } from '#core/accounts/account-rate-limits.ts'
import { ANSWER_TIME_FLOORS_MS } from '#core/accounts/answer-time-floor.ts'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { awayFromWindowEdge } from '#tests/support/rate-limit-window.ts'
import { type SmtpSink, startSmtpSink } from '#tests/support/smtp-sink.ts'
import { type ServerProcess, startAppOnTestDatabase } from './server-process.ts'

// The account security baseline through the running server: per-account limits that hold
// across client addresses, no account enumeration (answers and timing), single-use and expiring
// reset and verification links.
const SECRET = 'account-security-test-secret-0123456789'
const PASSWORD = 'correct horse battery'
const SMTP_REPLY_DELAY_MS = 1000
let server: ServerProcess
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']
let smtp: SmtpSink

beforeAll(async () => {
  // Mail goes over SMTP to a local server that takes a second to accept each message, as a
  // remote relay may: an answer that waited for its e-mail could not end before that.
  smtp = await startSmtpSink({ replyDelayMs: SMTP_REPLY_DELAY_MS })
  ;({ server, database } = await startAppOnTestDatabase({ AUTH_SECRET: SECRET, SMTP_URL: smtp.url }))
})

afterAll(async () => {
  await smtp?.close()
})

type Answer = {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
  /** From send to the end of the body, and the `performance.now()` of that end. */
  ms: number
  endedAt: number
}

// The server keys its per-address limits on the socket's address: each 127.0.0.x is a client.
let lastAddress = 1
const newClientAddress = () => `127.0.0.${++lastAddress}`

/** One HTTP request from the given loopback address, timed from send to the end of the body. */
function send(
  method: 'GET' | 'POST',
  pathname: string,
  options: { from: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> },
): Promise<Answer> {
  const payload =
    options.json !== undefined
      ? JSON.stringify(options.json)
      : options.form
        ? new URLSearchParams(options.form).toString()
        : undefined
  const headers: Record<string, string> = { origin: server.url, ...options.headers }
  if (payload !== undefined) {
    headers['content-type'] =
      options.json !== undefined ? 'application/json' : 'application/x-www-form-urlencoded'
    headers['content-length'] = String(Buffer.byteLength(payload))
  }
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const request = http.request(
      new URL(pathname, server.url),
      { method, headers, localAddress: options.from, agent: false },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const endedAt = performance.now()
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: endedAt - started,
            endedAt,
          })
        })
      },
    )
    request.on('error', reject)
    request.end(payload)
  })
}

const api = (pathname: string, json: unknown, from = newClientAddress()) =>
  send('POST', `/api/auth${pathname}`, { from, json })

/** A verified account made in the database with the app's own argon2id hash. */
async function verifiedAccount(email: string, password = PASSWORD, verified = true) {
  return (await insertPasswordAccount(database.pool, { email, password, verified })).id
}

/** The error better-auth put in a redirect's query (`?error=INVALID_TOKEN`), if any. */
const errorIn = (answer: Answer) =>
  new URL(answer.headers.location ?? '', server.url).searchParams.get('error')

const sessionCookie = (answer: Answer) =>
  (answer.headers['set-cookie'] ?? []).find((cookie) => /session_token=[^;]+/.test(cookie)) ?? null

test('after 10 wrong passwords from several addresses an account is locked from every address, with the same answer as an unknown one; the form says why', async () => {
  await awayFromWindowEdge(SIGN_IN_FAILURES_PER_ACCOUNT.windowSeconds)
  await verifiedAccount('target@example.com')
  await verifiedAccount('bystander@example.com')
  // better-auth allows 5 sign-ins a minute per address: each address here makes 4.
  const addresses = Array.from({ length: SIGN_IN_FAILURES_PER_ACCOUNT.limit / 2 }, newClientAddress)
  const statuses = { existing: [] as number[], unknown: [] as number[] }
  for (let attempt = 0; attempt < SIGN_IN_FAILURES_PER_ACCOUNT.limit; attempt++) {
    const from = addresses[attempt % addresses.length]
    statuses.existing.push(
      (await api('/sign-in/email', { email: 'target@example.com', password: `wrong ${attempt}` }, from))
        .status,
    )
    statuses.unknown.push(
      (await api('/sign-in/email', { email: 'nobody@example.com', password: `wrong ${attempt}` }, from))
        .status,
    )
  }
  expect(statuses.existing).toEqual(Array(SIGN_IN_FAILURES_PER_ACCOUNT.limit).fill(401))
  expect(statuses.unknown).toEqual(statuses.existing)

  // A new address, and the right password: still locked.
  const locked = await api('/sign-in/email', { email: 'target@example.com', password: PASSWORD })
  expect(locked.status).toBe(429)
  expect(sessionCookie(locked)).toBeNull()
  const retryAfter = Number(locked.headers['retry-after'])
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_FAILURES_PER_ACCOUNT.windowSeconds)
  const unknown = await api('/sign-in/email', { email: 'nobody@example.com', password: PASSWORD })
  expect(unknown.status).toBe(locked.status)
  expect(unknown.body).toBe(locked.body)

  // Other accounts are not affected, from the same addresses.
  const bystander = await api(
    '/sign-in/email',
    { email: 'bystander@example.com', password: PASSWORD },
    addresses[0],
  )
  expect(bystander.status).toBe(200)

  // The sign-in form shows the translated message.
  const form = await send('POST', '/auth', {
    from: newClientAddress(),
    form: { intent: 'signin', email: 'target@example.com', password: PASSWORD, redirectTo: '/' },
    headers: { cookie: 'lang=en' },
  })
  expect(form.status).toBe(429)
  expect(form.body).toContain('Too many attempts.')
  const formEs = await send('POST', '/auth', {
    from: newClientAddress(),
    form: { intent: 'signin', email: 'target@example.com', password: PASSWORD, redirectTo: '/' },
    headers: { cookie: 'lang=es' },
  })
  expect(formEs.body).toContain('Demasiados intentos.')
})

/**
 * `samples` pairs of requests, one for a registered and one for an unknown e-mail, back to back
 * (alternating which goes first), each pair from its own address. `settle` waits for what a pair
 * left running (an e-mail) before the next pair.
 */
async function answerPairs(
  samples: number,
  request: (kind: 'existing' | 'unknown', index: number, from: string) => Promise<Answer>,
  settle: (index: number) => Promise<unknown> = async () => undefined,
) {
  const answers = { existing: [] as Answer[], unknown: [] as Answer[] }
  for (let index = 0; index < samples; index++) {
    const from = newClientAddress()
    const order = index % 2 === 0 ? (['existing', 'unknown'] as const) : (['unknown', 'existing'] as const)
    for (const kind of order) answers[kind].push(await request(kind, index, from))
    await settle(index)
  }
  return answers
}

/**
 * The timing defence of sign-up and reset requests, through the running server, with assertions
 * that load on the machine cannot break (answers only get slower): every answer, for a
 * registered or an unknown address, is held for the floor; the fastest of each kind is near the
 * floor, not above it (so neither path's own work outlasts the floor); and an answer that sends
 * an e-mail reached the client before the mail server had accepted that e-mail (had it waited,
 * it could only have ended after that). How close the two kinds' times are is measured, not
 * asserted, by `npm run bench:timing`: on a busy two-core machine medians of a few dozen
 * requests were too noisy for a test that must not fail by chance.
 */
function expectHeldToTheFloor(
  label: string,
  floorMs: number,
  answers: { existing: Answer[]; unknown: Answer[] },
  mailed: { kind: 'existing' | 'unknown'; to: (index: number) => string },
) {
  for (const kind of ['existing', 'unknown'] as const) {
    const times = answers[kind].map((answer) => answer.ms)
    console.log(`${label} (${kind}): ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`)
    // A timer may fire up to a millisecond early.
    for (const ms of times) expect(ms, `${label} ${kind}`).toBeGreaterThanOrEqual(floorMs - 1)
    expect(Math.min(...times), `${label} ${kind}, fastest`).toBeLessThan(floorMs * 1.5)
  }
  answers[mailed.kind].forEach((answer, index) => {
    const email = smtp.received.find((message) => message.envelope.to.includes(mailed.to(index)))
    expect(email, `${label}: the e-mail to ${mailed.to(index)}`).toBeDefined()
    expect(answer.endedAt, `${label}: answered before the e-mail was accepted`).toBeLessThan(
      (email?.receivedAt ?? 0) + SMTP_REPLY_DELAY_MS,
    )
  })
}

const SAMPLES = 6

test('sign-up, sign-in and forgot-password answer an existing and an unknown e-mail alike; sign-up and reset are held to their floor and never wait for the e-mail', async () => {
  const existing = Array.from({ length: SAMPLES }, (_, index) => `timing-${index}@example.com`)
  for (const email of existing) await verifiedAccount(email)
  const run = randomUUID().slice(0, 8)
  // Addresses no account has (sign-up creates the ones it is given: each flow has its own).
  const unknown = (flow: string, index: number) => `absent-${flow}-${run}-${index}@example.com`

  const signUp = await answerPairs(
    SAMPLES,
    (kind, index, from) =>
      api(
        '/sign-up/email',
        {
          name: 'Same Name',
          email: kind === 'existing' ? existing[index] : unknown('sign-up', index),
          password: PASSWORD,
          callbackURL: '/auth?verified=true',
        },
        from,
      ),
    // The new account's verification e-mail.
    (index) => smtp.link(unknown('sign-up', index)),
  )
  const signIn = await answerPairs(SAMPLES, (kind, index, from) =>
    api(
      '/sign-in/email',
      {
        email: kind === 'existing' ? existing[index] : unknown('sign-in', index),
        password: 'wrong password',
      },
      from,
    ),
  )
  const forgot = await answerPairs(
    SAMPLES,
    (kind, index, from) =>
      api(
        '/request-password-reset',
        {
          email: kind === 'existing' ? existing[index] : unknown('forgot', index),
          redirectTo: '/auth/reset-password',
        },
        from,
      ),
    // The existing account's reset e-mail.
    (index) => smtp.link(existing[index] ?? ''),
  )

  // Same status and body (sign-up's user differs only in id, e-mail and timestamps).
  const comparableSignUp = (answer: Answer) => {
    const body = JSON.parse(answer.body) as { user: Record<string, unknown> }
    return {
      status: answer.status,
      body: { ...body, user: { ...body.user, id: 'x', email: 'x', createdAt: 'x', updatedAt: 'x' } },
    }
  }
  const firstSignUp = comparableSignUp(signUp.existing[0] as Answer)
  expect(firstSignUp.status).toBe(200)
  for (const answer of [...signUp.existing, ...signUp.unknown]) {
    expect(comparableSignUp(answer)).toEqual(firstSignUp)
  }
  for (const flow of [signIn, forgot]) {
    const first = flow.existing[0] as Answer
    for (const answer of [...flow.existing, ...flow.unknown]) {
      expect({ status: answer.status, body: answer.body }).toEqual({ status: first.status, body: first.body })
    }
  }
  expect((signIn.existing[0] as Answer).status).toBe(401)
  expect((forgot.existing[0] as Answer).status).toBe(200)

  // Sign-in has no floor: both paths spend one argon2id operation, which
  // core/accounts/sign-in-password-work.db.test.ts checks by counting them.
  expectHeldToTheFloor('sign-up', ANSWER_TIME_FLOORS_MS['/sign-up/email'] ?? 0, signUp, {
    kind: 'unknown',
    to: (index) => unknown('sign-up', index),
  })
  expectHeldToTheFloor('forgot-password', ANSWER_TIME_FLOORS_MS['/request-password-reset'] ?? 0, forgot, {
    kind: 'existing',
    to: (index) => existing[index] ?? '',
  })
}, 180_000)

test('a reset link works once; used again, or past its expiry, it leads to "Invalid reset link" and changes nothing', async () => {
  await verifiedAccount('reset@example.com')
  expect(
    (await api('/request-password-reset', { email: 'reset@example.com', redirectTo: '/auth/reset-password' }))
      .status,
  ).toBe(200)
  const link = new URL(await smtp.link('reset@example.com'))
  const from = newClientAddress()
  const opened = await send('GET', `${link.pathname}${link.search}`, { from })
  expect(opened.status).toBe(302)
  const resetPage = new URL(opened.headers.location ?? '', server.url)
  const token = resetPage.searchParams.get('token') ?? ''
  expect(resetPage.pathname).toBe('/auth/reset-password')
  expect(token).not.toBe('')

  const resetForm = (password: string, tokenValue = token) =>
    send('POST', `/auth/reset-password?token=${tokenValue}`, {
      from,
      form: { token: tokenValue, password, confirmPassword: password },
    })
  const first = await resetForm('first new password')
  expect(first.status).toBe(302)
  expect(first.headers.location).toBe('/auth')
  const reused = await resetForm('second new password')
  expect(reused.status).toBe(302)
  expect(reused.headers.location).toBe('/auth?reset=invalid')
  expect(
    (await api('/sign-in/email', { email: 'reset@example.com', password: 'first new password' })).status,
  ).toBe(200)
  expect(
    (await api('/sign-in/email', { email: 'reset@example.com', password: 'second new password' })).status,
  ).toBe(401)

  // The e-mail's link itself, opened again.
  const reopened = await send('GET', `${link.pathname}${link.search}`, { from })
  expect(errorIn(reopened)).toBe('INVALID_TOKEN')
  const page = await send('GET', reopened.headers.location ?? '', { from })
  expect(page.headers.location).toBe('/auth?reset=invalid')
  const invalid = await send('GET', '/auth?reset=invalid', { from, headers: { cookie: 'lang=en' } })
  expect(invalid.body).toContain('Invalid reset link')
  // The request logs name the links without their live tokens.
  expect(server.output()).toContain('/api/auth/reset-password/[redacted]')
  expect(server.output()).not.toContain(token)

  // Expired: a fresh link whose row is past its expiry.
  const userId = await verifiedAccount('expired-reset@example.com')
  expect(
    (
      await api('/request-password-reset', {
        email: 'expired-reset@example.com',
        redirectTo: '/auth/reset-password',
      })
    ).status,
  ).toBe(200)
  const expiredLink = new URL(await smtp.link('expired-reset@example.com'))
  const expiredToken = expiredLink.pathname.split('/').at(-1) ?? ''
  const { rowCount } = await database.pool.query(
    `UPDATE verifications SET expires_at = now() - interval '1 second' WHERE value = $1 AND identifier LIKE 'reset-password:%'`,
    [userId],
  )
  expect(rowCount).toBe(1)
  const expiredOpen = await send('GET', `${expiredLink.pathname}${expiredLink.search}`, { from })
  expect(errorIn(expiredOpen)).toBe('INVALID_TOKEN')
  const expiredPost = await resetForm('third new password', expiredToken)
  expect(expiredPost.headers.location).toBe('/auth?reset=invalid')
  expect(
    (await api('/sign-in/email', { email: 'expired-reset@example.com', password: PASSWORD })).status,
  ).toBe(200)
})

test('a verification link signs in once; opened again it signs no one in, and an expired or forged one is refused', async () => {
  const signUp = await api('/sign-up/email', {
    name: 'Vera',
    email: 'vera@example.com',
    password: PASSWORD,
    callbackURL: '/auth?verified=true',
  })
  expect(signUp.status).toBe(200)
  const link = new URL(await smtp.link('vera@example.com'))
  const from = newClientAddress()
  const first = await send('GET', `${link.pathname}${link.search}`, { from })
  expect(first.status).toBe(302)
  expect(first.headers.location).toBe('/auth?verified=true')
  const cookie = sessionCookie(first)
  expect(cookie).not.toBeNull()
  const session = await send('GET', '/api/auth/get-session', {
    from,
    headers: { cookie: (cookie ?? '').split(';')[0] ?? '' },
  })
  expect(JSON.parse(session.body)).toMatchObject({ user: { email: 'vera@example.com', emailVerified: true } })
  const verificationToken = link.searchParams.get('token') ?? ''
  expect(verificationToken).not.toBe('')
  expect(server.output()).toContain('/api/auth/verify-email?token=[redacted]')
  expect(server.output()).not.toContain(verificationToken)

  const again = await send('GET', `${link.pathname}${link.search}`, { from })
  expect(again.status).toBe(302)
  expect(sessionCookie(again)).toBeNull()
  const sessions = await database.pool.query(
    `SELECT count(*)::int AS n FROM sessions JOIN users ON users.id = sessions.user_id WHERE users.email = 'vera@example.com'`,
  )
  expect(sessions.rows[0].n).toBe(1)
  // Where both land: the first as signed in, the second told to sign in.
  const signedInPage = await send('GET', '/email-verification', {
    from,
    headers: { cookie: `${(cookie ?? '').split(';')[0]}; lang=en` },
  })
  expect(signedInPage.body).toContain('Your e-mail is confirmed and you are signed in.')
  const anonymousPage = await send('GET', '/email-verification', { from, headers: { cookie: 'lang=en' } })
  expect(anonymousPage.body).toContain('Your e-mail is confirmed.')
  expect(anonymousPage.body).not.toContain('you are signed in')

  // Tokens made as better-auth makes them, for an account not verified yet.
  const userId = await verifiedAccount('late@example.com', PASSWORD, false)
  const verify = async (token: string) =>
    send(
      'GET',
      `/api/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent('/auth?verified=true')}`,
      { from },
    )
  const expired = await verify(
    await createEmailVerificationToken(SECRET, 'late@example.com', undefined, -60, { userId }),
  )
  const forged = await verify(
    await createEmailVerificationToken(
      'another-secret-another-secret-0123456789',
      'late@example.com',
      undefined,
      3600,
      { userId },
    ),
  )
  for (const [answer, error] of [
    [expired, 'TOKEN_EXPIRED'],
    [forged, 'INVALID_TOKEN'],
  ] as const) {
    expect(answer.status).toBe(302)
    expect(errorIn(answer)).toBe(error)
    expect(sessionCookie(answer)).toBeNull()
  }
  const stillUnverified = await database.pool.query(`SELECT email_verified FROM users WHERE id = $1`, [
    userId,
  ])
  expect(stillUnverified.rows[0].email_verified).toBe(false)
  // The page a refused link lands on says so.
  const landing = await send('GET', expired.headers.location ?? '', { from, headers: { cookie: 'lang=en' } })
  expect(landing.status).toBe(200)
  expect(landing.body).toContain('Invalid verification link')
  expect(landing.body).not.toContain('Email Verified!')

  // The same kind of token, unexpired and signed with the server's secret, does verify.
  const valid = await verify(
    await createEmailVerificationToken(SECRET, 'late@example.com', undefined, 3600, { userId }),
  )
  expect(valid.headers.location).toBe('/auth?verified=true')
  expect(sessionCookie(valid)).not.toBeNull()
})

test('a link re-sent on sign-in (form or JSON API) or from the check-your-email screen ends where the first one ends: signed in, on "Email Verified!"', async () => {
  for (const email of ['resent-form@example.com', 'resent-api@example.com', 'resent-button@example.com'])
    await verifiedAccount(email, PASSWORD, false)
  const formSignIn = await send('POST', '/auth', {
    from: newClientAddress(),
    form: { intent: 'signin', email: 'resent-form@example.com', password: PASSWORD, redirectTo: '/' },
    headers: { cookie: 'lang=en' },
  })
  expect(formSignIn.status).toBe(403)
  expect(formSignIn.body).toContain('Confirm your e-mail first')
  // A client of the JSON API that names no callbackURL (better-auth would then use "/").
  const apiSignIn = await api('/sign-in/email', { email: 'resent-api@example.com', password: PASSWORD })
  expect(apiSignIn.status).toBe(403)

  // The check-your-email screen's button answers alike for an address with no account.
  const resend = (email: string) =>
    send('POST', '/auth?mode=signup&sent=1', { from: newClientAddress(), form: { intent: 'resend', email } })
  const known = await resend('resent-button@example.com')
  const unknown = await resend(`nobody-${randomUUID().slice(0, 8)}@example.com`)
  expect(known.status).toBe(302)
  expect(known.headers.location).toBe('/auth?mode=signup&sent=1')
  expect(unknown.status).toBe(known.status)
  expect(unknown.headers.location).toBe(known.headers.location)
  // The screen it comes back to names the address (from a short-lived cookie, not the URL) with the toast.
  const cookies = (known.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]).join('; ')
  expect(cookies).toMatch(/sent_to=/)
  const screen = await send('GET', '/auth?mode=signup&sent=1', {
    from: newClientAddress(),
    headers: { cookie: `${cookies}; lang=en` },
  })
  expect(screen.body).toContain('resent-button@example.com')
  expect(screen.body).toContain('Check your email')
  expect(screen.body).toContain('We&#x27;ve sent you a verification link.')

  for (const email of ['resent-form@example.com', 'resent-api@example.com', 'resent-button@example.com']) {
    const link = new URL(await smtp.link(email))
    expect(link.searchParams.get('callbackURL')).toBe('/auth?verified=true')
    const from = newClientAddress()
    const opened = await send('GET', `${link.pathname}${link.search}`, { from })
    expect(opened.status).toBe(302)
    expect(opened.headers.location).toBe('/auth?verified=true')
    const cookie = `${(sessionCookie(opened) ?? '').split(';')[0]}; lang=en`
    expect(cookie).toMatch(/session_token=/)
    const landing = await send('GET', '/auth?verified=true', { from, headers: { cookie } })
    expect(landing.headers.location).toBe('/email-verification')
    const verifiedPage = await send('GET', '/email-verification', { from, headers: { cookie } })
    expect(verifiedPage.body).toContain('Email Verified!')
    expect(verifiedPage.body).toContain('Your e-mail is confirmed and you are signed in.')
  }
})

test('deleting the account always asks for the password, through the page and the JSON API; a Google-only account needs a fresh session and an explicit confirmation', async () => {
  const cookieOf = (answer: Answer) =>
    (answer.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]).join('; ')
  const stillThere = async (id: string) =>
    (await database.pool.query('SELECT 1 FROM users WHERE id = $1', [id])).rowCount === 1
  const signedIn = async (email: string) => {
    const id = await verifiedAccount(email)
    const signIn = await api('/sign-in/email', { email, password: PASSWORD })
    expect(signIn.status).toBe(200)
    return { id, cookie: cookieOf(signIn) }
  }

  // The JSON API: no password (a session minutes old), a wrong one, then the right one.
  const viaApi = await signedIn('delete-api@example.com')
  const from = newClientAddress()
  const apiDelete = (json: unknown) =>
    send('POST', '/api/auth/delete-user', { from, json, headers: { cookie: viaApi.cookie } })
  const empty = await apiDelete({})
  expect(empty.status).toBe(400)
  expect(JSON.parse(empty.body)).toMatchObject({ code: 'INVALID_PASSWORD' })
  expect((await apiDelete({ password: '' })).status).toBe(400)
  expect((await apiDelete({ confirm: true })).status).toBe(400)
  expect((await apiDelete({ password: 'not my password' })).status).toBe(400)
  expect(await stillThere(viaApi.id)).toBe(true)
  expect((await apiDelete({ password: PASSWORD })).status).toBe(200)
  expect(await stillThere(viaApi.id)).toBe(false)

  // The page's form, without JavaScript: an empty password deletes nothing.
  const viaPage = await signedIn('delete-page@example.com')
  const pageDelete = (form: Record<string, string>) =>
    send('POST', '/user-dashboard/profile', {
      from: newClientAddress(),
      form: { intent: 'delete-account', ...form },
      headers: { cookie: viaPage.cookie },
    })
  expect((await pageDelete({ password: '' })).status).toBe(400)
  expect((await pageDelete({ password: 'not my password' })).status).toBe(400)
  expect(await stillThere(viaPage.id)).toBe(true)
  const deleted = await pageDelete({ password: PASSWORD })
  expect(deleted.status).toBe(302)
  expect(deleted.headers.location).toBe('/')
  expect(await stillThere(viaPage.id)).toBe(false)

  // An account without a password (Google only): a fresh session and the confirmation.
  const google = await signedIn('delete-google@example.com')
  await database.pool.query(
    `UPDATE accounts SET provider_id = 'google', password = NULL, account_id = 'google-sub-1' WHERE user_id = $1`,
    [google.id],
  )
  const googleDelete = (json: unknown) =>
    send('POST', '/api/auth/delete-user', { from, json, headers: { cookie: google.cookie } })
  expect((await googleDelete({})).status).toBe(400)
  expect(await stillThere(google.id)).toBe(true)
  await database.pool.query(
    `UPDATE sessions SET created_at = now() - interval '11 minutes' WHERE user_id = $1`,
    [google.id],
  )
  const stale = await googleDelete({ confirm: true })
  expect(stale.status).toBe(403)
  expect(JSON.parse(stale.body)).toMatchObject({ code: 'REAUTH_REQUIRED' })
  await database.pool.query(`UPDATE sessions SET created_at = now() WHERE user_id = $1`, [google.id])
  expect((await googleDelete({ confirm: true })).status).toBe(200)
  expect(await stillThere(google.id)).toBe(false)
})
