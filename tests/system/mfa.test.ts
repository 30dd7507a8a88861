import { randomUUID } from 'node:crypto'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { base32Decode, hotp, timeStep } from '#core/accounts/mfa/totp.ts'
import {
  insertPasswordAccount,
  insertSession,
  SESSION_COOKIE,
  signedSessionCookie,
} from '#tests/support/accounts.ts'
import { type ServerProcess, SYSTEM_TEST_SECRET, startAppOnTestDatabase } from './server-process.ts'

// Multi-factor authentication through the running server, with SMS going out through the Twilio
// adapter to a local stand-in of Twilio's API.
let server: ServerProcess
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']
const texts: { to: string; body: string }[] = []
const twilio = createServer(async (req, res) => {
  let raw = ''
  for await (const chunk of req) raw += chunk
  const form = new URLSearchParams(raw)
  texts.push({ to: form.get('To') ?? '', body: form.get('Body') ?? '' })
  res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: 'SM1' }))
})

beforeAll(async () => {
  await new Promise<void>((resolve) => twilio.listen(0, '127.0.0.1', resolve))
  ;({ server, database } = await startAppOnTestDatabase({
    TWILIO_ACCOUNT_SID: 'AC-test',
    TWILIO_AUTH_TOKEN: 'token',
    TWILIO_FROM: '+15005550006',
    TWILIO_API_URL: `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`,
  }))
})

afterAll(() => {
  twilio.close()
})

type Reply = { status: number; body: Record<string, unknown>; cookies: string[] }

/**
 * One request from a chosen loopback address (127.0.0.x), so sign-ins spread over addresses and
 * only the limits under test apply.
 */
function call(
  method: 'GET' | 'POST',
  pathname: string,
  { cookie = '', body, from = testAddress }: { cookie?: string; body?: unknown; from?: string } = {},
): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/api/auth${pathname}`,
      {
        method,
        localAddress: from,
        headers: {
          origin: server.url,
          ...(cookie ? { cookie } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let raw = ''
        res.on('data', (chunk) => {
          raw += chunk
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
            cookies: res.headers['set-cookie'] ?? [],
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

/** The cookie header a browser would send next, from the Set-Cookie lines (expired ones dropped). */
function jar(previous: string, setCookies: string[]) {
  const cookies = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.split('=')[0] ?? '', pair] as const),
  )
  for (const line of setCookies) {
    const pair = line.split(';')[0] ?? ''
    const name = pair.split('=')[0] ?? ''
    if (/max-age=0/i.test(line) || pair.endsWith('=')) cookies.delete(name)
    else cookies.set(name, pair)
  }
  return [...cookies.values()].join('; ')
}

let address = 10
const nextAddress = () => `127.0.0.${address++}`
// Each test speaks from its own address, so per-address limits of one test do not reach another.
let testAddress = '127.0.0.1'
beforeEach(() => {
  testAddress = nextAddress()
})

const verifiedUser = (email: string) => insertPasswordAccount(database.pool, { email, name: 'Ana' })

async function signIn(user: { email: string; password: string }, from = nextAddress()) {
  const reply = await call('POST', '/sign-in/email', {
    body: { email: user.email, password: user.password },
    from,
  })
  return { reply, cookie: jar('', reply.cookies) }
}

const codeAt = (secret: string, step: number) => hotp(base32Decode(secret), step)

/** A code that matches none of the steps the server accepts now. */
function wrongCode(secret: string) {
  const valid = new Set([-1, 0, 1].map((offset) => codeAt(secret, timeStep() + offset)))
  return ['000000', '111111', '222222', '333333'].find((code) => !valid.has(code)) ?? '444444'
}

async function enrolTotp(cookie: string, friendlyName = 'Mi móvil') {
  const created = await call('POST', '/mfa/factors', { cookie, body: { type: 'totp', friendlyName } })
  expect(created.status).toBe(200)
  const factor = created.body as { id: string; totp: { secret: string; uri: string } }
  const challenge = await call('POST', `/mfa/factors/${factor.id}/challenge`, { cookie })
  const step = timeStep()
  const verified = await call('POST', `/mfa/factors/${factor.id}/verify`, {
    cookie,
    body: { challengeId: challenge.body.id, code: codeAt(factor.totp.secret, step) },
  })
  return { factor, verified, step }
}

test('TOTP: enrol, confirm (aal2, ten backup codes once), a code never works twice', async () => {
  const user = await verifiedUser('totp@example.com')
  const { cookie } = await signIn(user)
  const before = await call('GET', '/mfa/factors', { cookie })
  expect(before.body).toMatchObject({ aal: 'aal1', factors: [], backupCodesRemaining: 0 })

  const { factor, verified, step } = await enrolTotp(cookie)
  expect(factor.totp.uri).toMatch(/^otpauth:\/\/totp\/.+:totp%40example\.com\?issuer=.+&secret=[A-Z2-7]{32}&/)
  expect(new URL(factor.totp.uri).searchParams.get('secret')).toBe(factor.totp.secret)
  expect(verified.status).toBe(200)
  expect(verified.body.aal).toBe('aal2')
  expect(verified.body.backupCodes).toHaveLength(10)

  const after = await call('GET', '/mfa/factors', { cookie })
  expect(after.body).toMatchObject({
    aal: 'aal2',
    backupCodesRemaining: 10,
    factors: [{ id: factor.id, type: 'totp', friendlyName: 'Mi móvil', status: 'verified' }],
  })
  // The secret is never readable again once the factor is verified, and is stored encrypted.
  expect((await call('GET', `/mfa/factors/${factor.id}/totp-setup`, { cookie })).status).toBe(404)
  const stored = await database.pool.query('SELECT secret FROM auth_factors WHERE id = $1', [factor.id])
  expect(stored.rows[0].secret).not.toContain(factor.totp.secret)
  // Backup codes are argon2id hashes.
  const codes = await database.pool.query('SELECT code_hash FROM auth_backup_codes WHERE user_id = $1', [
    user.id,
  ])
  expect(codes.rows.every((row) => String(row.code_hash).startsWith('$argon2id$'))).toBe(true)

  // "Download my data" lists the factor, never its secret or the backup codes.
  const exported = await (await fetch(`${server.url}/account/export`, { headers: { cookie } })).text()
  expect(JSON.parse(exported)).toMatchObject({
    secondFactors: [{ type: 'totp', friendlyName: 'Mi móvil', status: 'verified' }],
    unusedBackupCodes: 10,
  })
  expect(exported).not.toContain(factor.totp.secret)
  expect(exported).not.toContain((verified.body.backupCodes as string[])[0])

  // Replay: the code just used (its own step, however long the checks above took), against a
  // fresh challenge, is refused.
  const again = await call('POST', `/mfa/factors/${factor.id}/challenge`, { cookie })
  const replay = await call('POST', `/mfa/factors/${factor.id}/verify`, {
    cookie,
    body: { challengeId: again.body.id, code: codeAt(factor.totp.secret, step) },
  })
  expect(replay.status).toBe(401)
  expect(replay.body.code).toBe('MFA_INVALID_CODE')
})

test('signing in with a verified factor creates no session until the code; then the session is aal2', async () => {
  const user = await verifiedUser('gate@example.com')
  const first = await signIn(user)
  const { factor } = await enrolTotp(first.cookie, 'Authenticator')

  const { reply, cookie: pendingCookie } = await signIn(user)
  expect(reply.status).toBe(200)
  expect(reply.body).toMatchObject({ mfaRequired: true, factors: [{ id: factor.id, type: 'totp' }] })
  expect(reply.body.token).toBeUndefined()
  expect(pendingCookie).not.toMatch(/session_token=/)
  expect(pendingCookie).toMatch(/mfa_pending=/)
  const noSession = await call('GET', '/get-session', { cookie: pendingCookie })
  expect(noSession.body).toBeNull()
  const sessions = await database.pool.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [
    user.id,
  ])
  expect(sessions.rows[0].n).toBe(1) // only the first session, from before the factor existed

  // The pending sign-in lists the usable factors; a bad code is refused.
  expect((await call('GET', '/mfa/pending', { cookie: pendingCookie })).body).toMatchObject({
    factors: [{ id: factor.id }],
    backupCodesRemaining: 10,
  })
  const challenge = await call('POST', `/mfa/factors/${factor.id}/challenge`, { cookie: pendingCookie })
  const wrong = await call('POST', `/mfa/factors/${factor.id}/verify`, {
    cookie: pendingCookie,
    body: { challengeId: challenge.body.id, code: wrongCode(factor.totp.secret) },
  })
  expect(wrong.status).toBe(401)
  // The next step's code (clock drift allowance) is new, so it passes.
  const right = await call('POST', `/mfa/factors/${factor.id}/verify`, {
    cookie: pendingCookie,
    body: { challengeId: challenge.body.id, code: codeAt(factor.totp.secret, timeStep() + 1) },
  })
  expect(right.status).toBe(200)
  const signedIn = jar(pendingCookie, right.cookies)
  expect(signedIn).toMatch(/session_token=/)
  expect(signedIn).not.toMatch(/mfa_pending=/)
  const session = await call('GET', '/get-session', { cookie: signedIn })
  expect(session.body).toMatchObject({ user: { email: 'gate@example.com' }, session: { aal: 'aal2' } })
  // The pending sign-in is spent: its cookie cannot make a second session.
  const reuse = await call('POST', `/mfa/factors/${factor.id}/verify`, {
    cookie: pendingCookie,
    body: { challengeId: challenge.body.id, code: codeAt(factor.totp.secret, timeStep() + 1) },
  })
  expect(reuse.status).toBe(401)
})

test('five wrong codes end a pending sign-in; the per-account limit holds across addresses', async () => {
  const user = await verifiedUser('brute@example.com')
  const { factor } = await enrolTotp((await signIn(user)).cookie, 'App')
  const secret = factor.totp.secret
  const tryCodes = async (count: number) => {
    const { cookie } = await signIn(user)
    const statuses: string[] = []
    for (let attempt = 0; attempt < count; attempt++) {
      const challenge = await call('POST', `/mfa/factors/${factor.id}/challenge`, {
        cookie,
        from: nextAddress(),
      })
      const reply = await call('POST', `/mfa/factors/${factor.id}/verify`, {
        cookie,
        from: nextAddress(),
        body: { challengeId: challenge.body.id, code: wrongCode(secret) },
      })
      statuses.push(`${reply.status} ${reply.body.code}`)
    }
    return statuses
  }
  const first = await tryCodes(5)
  expect(first.slice(0, 4)).toEqual(Array(4).fill('401 MFA_INVALID_CODE'))
  expect(first[4]).toBe('401 MFA_SIGN_IN_EXPIRED')
  // Only wrong codes count (the enrolment's right one gave its check back): five and five more
  // (from new addresses, in a new sign-in) make the account's 10 checks per 15 minutes; the next
  // one is refused whatever the address.
  const second = await tryCodes(5)
  expect(second.slice(0, 4)).toEqual(Array(4).fill('401 MFA_INVALID_CODE'))
  expect(second[4]).toBe('401 MFA_SIGN_IN_EXPIRED')
  expect(await tryCodes(1)).toEqual(['429 MFA_TOO_MANY_ATTEMPTS'])
})

test('a backup code signs in once; the same code twice is refused', async () => {
  const user = await verifiedUser('backup@example.com')
  const { verified } = await enrolTotp((await signIn(user)).cookie, 'App')
  const code = (verified.body.backupCodes as string[])[0]
  const pending = await signIn(user)
  const used = await call('POST', '/mfa/backup-codes/verify', { cookie: pending.cookie, body: { code } })
  expect(used.status).toBe(200)
  expect(jar('', used.cookies)).toMatch(/session_token=/)
  const again = await signIn(user)
  const reused = await call('POST', '/mfa/backup-codes/verify', { cookie: again.cookie, body: { code } })
  expect(reused.status).toBe(401)
  expect(reused.body.code).toBe('MFA_INVALID_CODE')
  const bad = await call('POST', '/mfa/backup-codes/verify', {
    cookie: again.cookie,
    body: { code: '<b>x</b>' },
  })
  expect(bad.status).toBe(400)
  expect(bad.body).toMatchObject({ code: 'MFA_INVALID_INPUT', message: 'backupCodeFormat' })
})

test('phone factor: the code goes out by SMS in the user’s language through the provider adapter', async () => {
  const user = await verifiedUser('phone@example.com')
  const { cookie } = await signIn(user)
  const created = await call('POST', '/mfa/factors', {
    cookie,
    body: { type: 'phone', friendlyName: 'Móvil', phone: '+34 600 11 22 33' },
  })
  expect(created.status).toBe(200)
  expect(created.body).toMatchObject({ type: 'phone', status: 'unverified', phone: '+34•••••••33' })
  const challenge = await call('POST', `/mfa/factors/${created.body.id}/challenge`, { cookie })
  expect(challenge.status).toBe(200)
  const sms = texts.at(-1)
  expect(sms?.to).toBe('+34600112233')
  expect(sms?.body).toMatch(/tu código de verificación es \d{6}\. Vence en 5 minutos/)
  const code = /(\d{6})/.exec(sms?.body ?? '')?.[1]
  // The code is stored as an HMAC, never in clear.
  const stored = await database.pool.query('SELECT code_hash FROM auth_factor_challenges WHERE id = $1', [
    challenge.body.id,
  ])
  expect(stored.rows[0].code_hash).not.toContain(code)
  const verified = await call('POST', `/mfa/factors/${created.body.id}/verify`, {
    cookie,
    body: { challengeId: challenge.body.id, code },
  })
  expect(verified.status).toBe(200)
  expect(verified.body.backupCodes).toHaveLength(10)
  // The challenge was used: the same code again is refused.
  const replay = await call('POST', `/mfa/factors/${created.body.id}/verify`, {
    cookie,
    body: { challengeId: challenge.body.id, code },
  })
  expect(replay.status).toBe(400)
  expect(replay.body.code).toBe('MFA_CHALLENGE_EXPIRED')
})

test('bad enrolment input gets 400 with a named problem and writes nothing', async () => {
  const user = await verifiedUser('input@example.com')
  const { cookie } = await signIn(user)
  const cases: [unknown, string][] = [
    [{ type: 'totp', friendlyName: '' }, 'required'],
    [{ type: 'totp', friendlyName: 'x'.repeat(61) }, 'nameTooLong'],
    [{ type: 'phone', friendlyName: 'Casa', phone: '12345' }, 'phoneInvalid'],
    [{ type: 'phone', friendlyName: 'Casa', phone: '<script>' }, 'phoneInvalid'],
    [{ type: 'email', friendlyName: 'x' }, 'invalid'],
    [{ type: 'totp', friendlyName: 42 }, 'required'],
  ]
  for (const [body, message] of cases) {
    const reply = await call('POST', '/mfa/factors', { cookie, body })
    expect(reply.status, JSON.stringify(body)).toBe(400)
    expect(reply.body.code).toBe('MFA_INVALID_INPUT')
    if (message !== 'invalid') expect(reply.body.message).toBe(message)
  }
  const rows = await database.pool.query('SELECT count(*)::int AS n FROM auth_factors WHERE user_id = $1', [
    user.id,
  ])
  expect(rows.rows[0].n).toBe(0)
  expect((await call('GET', '/mfa/factors')).status).toBe(401)
  expect((await call('POST', '/mfa/factors/not-a-uuid/verify', { cookie, body: {} })).status).toBe(400)
  expect((await call('POST', `/mfa/factors/${randomUUID()}/challenge`, { cookie })).status).toBe(404)
})

test('turning the second step on ends the password-only sessions; an aal1 session cannot add or remove factors; removal needs the password; others’ factors are out of reach', async () => {
  const user = await verifiedUser('levels@example.com')
  const earlier = await signIn(user) // a second device, signed in before the factor existed
  const current = await signIn(user)
  const { factor } = await enrolTotp(current.cookie, 'App')
  expect((await call('GET', '/mfa/factors', { cookie: earlier.cookie })).status).toBe(401)
  expect((await call('GET', '/mfa/factors', { cookie: current.cookie })).body.aal).toBe('aal2')

  // A session at aal1 on an account with a factor (none can be signed in any more; one made
  // directly, as a session from before this rule would be) still may do nothing protected.
  const older = {
    cookie: `${SESSION_COOKIE}=${signedSessionCookie(await insertSession(database.pool, user.id), SYSTEM_TEST_SECRET)}`,
  }
  expect((await call('GET', '/mfa/factors', { cookie: older.cookie })).body.aal).toBe('aal1')
  const add = await call('POST', '/mfa/factors', {
    cookie: older.cookie,
    body: { type: 'totp', friendlyName: 'Otra' },
  })
  expect(add.status).toBe(403)
  expect(add.body.code).toBe('MFA_AAL2_REQUIRED')
  // Nor can it raise itself to aal2 through a factor the aal2 session is still setting up.
  const second = await call('POST', '/mfa/factors', {
    cookie: current.cookie,
    body: { type: 'totp', friendlyName: 'Otra' },
  })
  expect(second.status).toBe(200)
  expect(
    (await call('GET', `/mfa/factors/${second.body.id}/totp-setup`, { cookie: older.cookie })).status,
  ).toBe(403)
  expect(
    (await call('POST', `/mfa/factors/${second.body.id}/challenge`, { cookie: older.cookie })).status,
  ).toBe(403)
  // …while stepping up with the verified factor is what aal1 sessions may do.
  const stepUp = await call('POST', `/mfa/factors/${factor.id}/challenge`, { cookie: older.cookie })
  expect(stepUp.status).toBe(200)
  await call('POST', `/mfa/factors/${second.body.id}/remove`, { cookie: current.cookie, body: {} })
  const removeFromAal1 = await call('POST', `/mfa/factors/${factor.id}/remove`, {
    cookie: older.cookie,
    body: { password: user.password },
  })
  expect(removeFromAal1.status).toBe(403)

  const stranger = await verifiedUser('stranger@example.com')
  const strangerSession = await signIn(stranger)
  expect(
    (
      await call('POST', `/mfa/factors/${factor.id}/remove`, {
        cookie: strangerSession.cookie,
        body: { password: stranger.password },
      })
    ).status,
  ).toBe(404)

  const noPassword = await call('POST', `/mfa/factors/${factor.id}/remove`, {
    cookie: current.cookie,
    body: {},
  })
  expect(noPassword.status).toBe(400)
  expect(noPassword.body.code).toBe('INVALID_PASSWORD')
  const removed = await call('POST', `/mfa/factors/${factor.id}/remove`, {
    cookie: current.cookie,
    body: { password: user.password },
  })
  expect(removed.status).toBe(200)
  const left = await call('GET', '/mfa/factors', { cookie: current.cookie })
  expect(left.body).toMatchObject({ factors: [], backupCodesRemaining: 0 })
  // Without a factor, a sign-in is one step again.
  expect((await signIn(user)).cookie).toMatch(/session_token=/)
})

test('the MFA endpoints refuse a foreign origin', async () => {
  const user = await verifiedUser('origin@example.com')
  const { cookie } = await signIn(user)
  const reply = await fetch(`${server.url}/api/auth/mfa/factors`, {
    method: 'POST',
    headers: { origin: 'https://evil.example', cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'totp', friendlyName: 'x' }),
  })
  expect(reply.status).toBe(403)
})
