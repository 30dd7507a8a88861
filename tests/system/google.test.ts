import { randomUUID } from 'node:crypto'
import {
  Events,
  type MutableRedirectUri,
  type MutableResponse,
  type MutableToken,
  OAuth2Server,
} from 'oauth2-mock-server'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { insertPasswordAccount } from '#tests/support/accounts.ts'
import { freePort, type ServerProcess, startAppOnTestDatabase } from './server-process.ts'

// Google sign-in through the running server, against a local OpenID Connect provider started on
// loopback: the provider is the only stand-in. It signs anyone in at once; what it says about
// them (the ID token's and the userinfo endpoint's claims) is set per test through `person`.
const CLIENT_ID = 'storefront-system-test.apps.example'
const CLIENT_SECRET = 'system-test-google-secret'

type Person = {
  sub: string
  email: string
  email_verified: boolean
  /** In the ID token; the userinfo endpoint answers `userinfoName` (or this). */
  name?: string
  userinfoName?: string
  /** Audience of the ID token, when it should not be our client. */
  audience?: string
}

let server: ServerProcess
let provider: OAuth2Server
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']
let person: Person | null = null

beforeAll(async () => {
  provider = new OAuth2Server()
  await provider.issuer.keys.generate('RS256')
  const providerPort = await freePort()
  provider.issuer.url = `http://127.0.0.1:${providerPort}`
  await provider.start(providerPort, '127.0.0.1')
  // Both tokens (access and ID) pass here; the ID token is the one with our client as audience.
  provider.service.on(Events.BeforeTokenSigning, (token: MutableToken) => {
    if (!person) return
    Object.assign(token.payload, {
      sub: person.sub,
      email: person.email,
      email_verified: person.email_verified,
      ...(person.name ? { name: person.name } : {}),
    })
    if (person.audience && token.payload.aud === CLIENT_ID) token.payload.aud = person.audience
  })
  provider.service.on(Events.BeforeUserinfo, (response: MutableResponse) => {
    if (!person) return
    response.body = { sub: person.sub, email: person.email, name: person.userinfoName ?? person.name }
  })

  ;({ server, database } = await startAppOnTestDatabase({
    // As behind a load balancer: each visitor below has its own address, so the limit on
    // starting sign-ins (10 a minute per address, /sign-in/social) applies to each one alone.
    TRUST_PROXY: '1',
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    GOOGLE_ISSUER: provider.issuer.url,
  }))
})

afterEach(() => {
  person = null
  provider.service.removeAllListeners(Events.BeforeAuthorizeRedirect)
  provider.service.removeAllListeners(Events.BeforeResponse)
})

afterAll(async () => {
  await provider?.stop()
})

let visitors = 0

/** A browser with its own address and a cookie jar for our site; redirects are followed by hand. */
function visitor(language: 'en' | 'es' = 'en') {
  const cookies = new Map<string, string>([['lang', language]])
  const address = `203.0.113.${++visitors}`
  return {
    cookies,
    async fetch(url: string, init: RequestInit = {}) {
      const target = new URL(url, server.url)
      const headers = new Headers(init.headers)
      if (target.origin === server.url) {
        headers.set('x-forwarded-for', address)
        headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '))
      }
      const response = await fetch(target, { ...init, headers, redirect: 'manual' })
      if (target.origin === server.url) {
        for (const line of response.headers.getSetCookie()) {
          const [pair = '', ...attributes] = line.split(';')
          const index = pair.indexOf('=')
          const name = pair.slice(0, index).trim()
          const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))
          if (expired) cookies.delete(name)
          else cookies.set(name, pair.slice(index + 1).trim())
        }
      }
      return response
    },
  }
}

type Visitor = ReturnType<typeof visitor>

/** Presses "Continue with Google", passes the provider, and returns our callback's answer. */
async function signInWithGoogle(browser: Visitor, fields: Record<string, string> = {}) {
  const start = await browser.fetch('/auth', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ intent: 'google', ...fields }),
  })
  expect(start.status).toBe(302)
  const authorize = new URL(start.headers.get('location') ?? '')
  const atProvider = await browser.fetch(authorize.href)
  expect(atProvider.status).toBe(302)
  const callback = await browser.fetch(atProvider.headers.get('location') ?? '')
  return { authorize, callback }
}

const userRow = async (email: string) =>
  (
    await database.pool.query(
      `SELECT id, name, email_verified AS "emailVerified", role FROM users WHERE email = $1`,
      [email],
    )
  ).rows
const accountRows = async (userId: string) =>
  (
    await database.pool.query(
      `SELECT provider_id AS "providerId", account_id AS "accountId" FROM accounts WHERE user_id = $1 ORDER BY provider_id`,
      [userId],
    )
  ).rows

test('a new Google user: the provider round trip, a verified account with the name, a session, the welcome', async () => {
  person = {
    sub: 'google-sub-ana',
    email: 'Ana.Google@example.com',
    email_verified: true,
    name: 'Ana García',
  }
  const browser = visitor('en')
  const { authorize, callback } = await signInWithGoogle(browser)

  // The authorization request: our client, the documented redirect URI, PKCE and a nonce.
  expect(authorize.origin).toBe(provider.issuer.url)
  expect(authorize.searchParams.get('client_id')).toBe(CLIENT_ID)
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/callback/google`)
  expect(authorize.searchParams.get('scope')?.split(' ').sort()).toEqual(['email', 'openid', 'profile'])
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
  expect(authorize.searchParams.get('nonce')).toMatch(/.{16,}/)

  expect(callback.status).toBe(302)
  expect(callback.headers.get('location')).toBe('/auth?via=google')
  expect(browser.cookies.has('better-auth.session_token')).toBe(true)

  const landing = await browser.fetch('/auth?via=google')
  expect(landing.status).toBe(302)
  expect(landing.headers.get('location')).toBe('/')
  const home = await browser.fetch('/')
  const html = await home.text()
  expect(html).toContain('Welcome back!')
  expect(html).toContain('Welcome, Ana García')

  const [user] = await userRow('ana.google@example.com')
  expect(user).toMatchObject({ name: 'Ana García', emailVerified: true, role: 'user' })
  expect(await accountRows(user.id)).toEqual([{ providerId: 'google', accountId: 'google-sub-ana' }])

  // Signing in again is the same user and the same account.
  const again = visitor('en')
  expect((await signInWithGoogle(again)).callback.headers.get('location')).toBe('/auth?via=google')
  expect(await userRow('ana.google@example.com')).toHaveLength(1)
  expect(await accountRows(user.id)).toHaveLength(1)
})

test('the name comes from the userinfo endpoint when the ID token has none; the sign-in returns to redirectTo', async () => {
  person = {
    sub: 'google-sub-luis',
    email: 'luis@example.com',
    email_verified: true,
    userinfoName: 'Luis Pérez',
  }
  const browser = visitor('es')
  const { callback } = await signInWithGoogle(browser, { redirectTo: '/user-dashboard' })
  expect(callback.headers.get('location')).toBe('/auth?via=google&redirectTo=%2Fuser-dashboard')
  const landing = await browser.fetch(callback.headers.get('location') ?? '')
  expect(landing.headers.get('location')).toBe('/user-dashboard')
  const page = await (await browser.fetch('/user-dashboard')).text()
  expect(page).toContain('Hola, Luis Pérez')
  expect(page).toContain('¡Bienvenido de nuevo!')
  expect(await userRow('luis@example.com')).toMatchObject([{ name: 'Luis Pérez', emailVerified: true }])
})

test('an existing password account with the same verified address is linked, not duplicated', async () => {
  const email = 'marta@example.com'
  const { id } = await insertPasswordAccount(database.pool, { email, name: 'Marta Local' })
  person = { sub: 'google-sub-marta', email: 'Marta@Example.com', email_verified: true, name: 'Marta G.' }
  const browser = visitor('en')
  const { callback } = await signInWithGoogle(browser)
  expect(callback.headers.get('location')).toBe('/auth?via=google')

  expect(await userRow(email)).toEqual([{ id, name: 'Marta Local', emailVerified: true, role: 'user' }])
  expect(await accountRows(id)).toEqual([
    { providerId: 'credential', accountId: id },
    { providerId: 'google', accountId: 'google-sub-marta' },
  ])
  const session = await browser.fetch('/api/auth/get-session')
  expect(await session.json()).toMatchObject({ user: { id, email } })
})

test('an unconfirmed password account is not joined to Google (pre-registration takeover): /auth says why', async () => {
  const email = 'pending@example.com'
  const id = `user-${randomUUID()}`
  await database.pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role) VALUES ($1, 'Someone', $2, false, now(), now(), 'user')`,
    [id, email],
  )
  person = { sub: 'google-sub-pending', email, email_verified: true, name: 'Real Owner' }
  const browser = visitor('en')
  const { callback } = await signInWithGoogle(browser)
  expect(callback.headers.get('location')).toBe('/auth?error=account_not_linked')
  expect(browser.cookies.has('better-auth.session_token')).toBe(false)
  expect(await accountRows(id)).toEqual([])
  const page = await (await browser.fetch('/auth?error=account_not_linked')).text()
  expect(page).toContain('Sign in failed')
  expect(page).toContain(
    'This e-mail already has an account, which we could not join to your Google account.',
  )
})

test('cancelled at the provider: back on /auth with the translated alert and reason, no session', async () => {
  provider.service.once(Events.BeforeAuthorizeRedirect, ({ url }: MutableRedirectUri) => {
    url.searchParams.delete('code')
    url.searchParams.set('error', 'access_denied')
  })
  const browser = visitor('es')
  const { callback } = await signInWithGoogle(browser)
  expect(callback.status).toBe(302)
  expect(callback.headers.get('location')).toBe('/auth?error=access_denied')
  expect(browser.cookies.has('better-auth.session_token')).toBe(false)
  const page = await browser.fetch('/auth?error=access_denied')
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toMatch(
    /role="alert"[^>]*>.*No se pudo iniciar sesión.*Cancelaste el inicio de sesión con Google\./s,
  )
})

test('failures at the provider or in what it answers sign nobody in and create nobody', async () => {
  const attempt = async (setUp: () => void) => {
    setUp()
    const browser = visitor('en')
    const { callback } = await signInWithGoogle(browser)
    expect(browser.cookies.has('better-auth.session_token')).toBe(false)
    return callback.headers.get('location')
  }
  // The token endpoint refuses the code.
  const refused = await attempt(() => {
    person = { sub: 'google-sub-x1', email: 'x1@example.com', email_verified: true, name: 'X' }
    provider.service.once(Events.BeforeResponse, (response: MutableResponse) => {
      response.statusCode = 400
      response.body = { error: 'invalid_grant' }
    })
  })
  expect(refused).toBe('/auth?error=invalid_code')
  // An ID token issued to another client.
  const foreign = await attempt(() => {
    person = {
      sub: 'google-sub-x2',
      email: 'x2@example.com',
      email_verified: true,
      name: 'X',
      audience: 'other',
    }
  })
  expect(foreign).toBe('/auth?error=unable_to_get_user_info')
  // An address Google has not verified.
  const unverified = await attempt(() => {
    person = { sub: 'google-sub-x3', email: 'x3@example.com', email_verified: false, name: 'X' }
  })
  expect(unverified).toBe('/auth?error=unable_to_get_user_info')
  const { rows } = await database.pool.query(
    `SELECT count(*)::int AS n FROM users WHERE email IN ('x1@example.com', 'x2@example.com', 'x3@example.com')`,
  )
  expect(rows[0].n).toBe(0)

  const browser = visitor('en')
  const invalidCode = await (await browser.fetch(refused ?? '')).text()
  expect(invalidCode).toContain('Signing in with Google did not complete. Please try again.')
  const unconfirmed = await (await browser.fetch(unverified ?? '')).text()
  expect(unconfirmed).toContain('Google did not give us a confirmed e-mail address for this account.')
})

test('a callback without the state cookie of the browser that started it is refused', async () => {
  person = { sub: 'google-sub-y', email: 'y@example.com', email_verified: true, name: 'Y' }
  const victim = visitor('en')
  const start = await victim.fetch('/auth', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ intent: 'google' }),
  })
  const atProvider = await victim.fetch(start.headers.get('location') ?? '')
  // Another browser (no state cookie) opens the callback URL.
  const attacker = visitor('en')
  const callback = await attacker.fetch(atProvider.headers.get('location') ?? '')
  expect(callback.status).toBe(302)
  expect(callback.headers.get('location')).toMatch(/error=state_mismatch/)
  expect(attacker.cookies.has('better-auth.session_token')).toBe(false)
})

test('starting Google sign-ins too fast from one address is answered 429 with the translated reason', async () => {
  const browser = visitor('en')
  const start = () =>
    browser.fetch('/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ intent: 'google' }),
    })
  const statuses: number[] = []
  while (statuses.at(-1) !== 429 && statuses.length < 12) statuses.push((await start()).status)
  // Ten a minute per address (core/accounts/better-auth/auth.ts), then refused.
  expect(statuses).toEqual([...Array(10).fill(302), 429])
  const html = await (await start()).text()
  expect(html).toContain('Sign in failed')
  expect(html).toContain('Too many attempts. Please wait a few minutes and try again.')
})

test('an account with a second factor signing in with Google gets no session, only the code page', async () => {
  person = { sub: 'google-sub-mfa', email: 'mfa.google@example.com', email_verified: true, name: 'Eva' }
  await signInWithGoogle(visitor('en'))
  const [user] = await userRow('mfa.google@example.com')
  // A verified authenticator app (the secret's value does not matter to the gate).
  await database.pool.query(
    `INSERT INTO auth_factors (user_id, type, friendly_name, status, secret, verified_at) VALUES ($1, 'totp', 'App', 'verified', 'x', now())`,
    [user.id],
  )
  const browser = visitor('en')
  const { callback } = await signInWithGoogle(browser)
  expect(callback.status).toBe(302)
  expect(callback.headers.get('location')).toBe(`${server.url}/auth/mfa`)
  expect(browser.cookies.has('better-auth.session_token')).toBe(false)
  expect(browser.cookies.has('better-auth.mfa_pending')).toBe(true)
  const sessions = await database.pool.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [
    user.id,
  ])
  expect(sessions.rows[0].n).toBe(1) // the first sign-in's, from before the factor
  const page = await browser.fetch('/auth/mfa')
  expect(page.status).toBe(200)
  expect(await page.text()).toContain('Code from your authenticator app &quot;App&quot;')
})
