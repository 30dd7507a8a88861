import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import { freePort, type ServerProcess, startServer } from './server-process.ts'

// Accounts through the running server: tokens for other clients and the security baseline.
let server: ServerProcess
let database: Awaited<ReturnType<typeof createTestDatabase>>
let dataDir: string

beforeAll(async () => {
  database = await createTestDatabase()
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-accounts-'))
  // Sign-in checks that requests come from APP_URL, so the port is chosen before the start.
  const port = await freePort()
  server = await startServer({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
  })
})

afterAll(async () => {
  await server?.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: server.url, ...headers },
  body: JSON.stringify(body),
})

async function verifiedUser(email: string, password = 'correct horse battery') {
  await fetch(`${server.url}/api/auth/sign-up/email`, json({ email, password, name: 'Token User' }))
  await database.pool.query('UPDATE users SET email_verified = true WHERE email = $1', [email])
  const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, json({ email, password }))
  const cookie = signIn.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ')
  return { signIn, cookie }
}

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
