import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import { beforeAll, expect, test } from 'vitest'
import {
  insertPasswordAccount,
  insertSession,
  SESSION_COOKIE,
  signedSessionCookie,
} from '#tests/support/accounts.ts'
import { type ServerProcess, SYSTEM_TEST_SECRET, startAppOnTestDatabase } from './server-process.ts'

// Malformed and oversized input from a probe of every route: a clear 4xx, never a 500, and
// nothing read beyond the limits.
let server: ServerProcess
let database: Awaited<ReturnType<typeof startAppOnTestDatabase>>['database']

beforeAll(async () => {
  ;({ server, database } = await startAppOnTestDatabase())
})

const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, cookie: 'lang=en', ...headers },
    body,
  })

test('the auth API refuses a body over the API limit with 413, before any sign-up is stored', async () => {
  const name = 'x'.repeat(200_000)
  const response = await postJson(
    '/api/auth/sign-up/email',
    JSON.stringify({ email: 'huge@example.com', password: 'correct horse battery', name }),
  )
  expect(response.status).toBe(413)
  expect(await response.json()).toMatchObject({ error: { message: 'The data sent is too large.' } })
  const stored = await database.pool.query(`SELECT 1 FROM users WHERE email = 'huge@example.com'`)
  expect(stored.rowCount).toBe(0)
})

test('the auth API refuses a body of unstated length (chunked) with 411', async () => {
  const url = new URL('/api/auth/sign-in/email', server.url)
  const status = await new Promise<number>((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url } },
      (response) => {
        response.resume()
        resolve(response.statusCode ?? 0)
      },
    )
    request.on('error', reject)
    request.write('{"email":"a@example.com",')
    request.end('"password":"correct horse battery"}')
  })
  expect(status).toBe(411)
})

test('a NUL byte in an auth URL or body is a 400, not a 500', async () => {
  const inBody = await postJson(
    '/api/auth/reset-password',
    JSON.stringify({ token: 'abc\u0000def', newPassword: 'correct horse battery' }),
  )
  expect(inBody.status).toBe(400)
  const inUrl = await fetch(`${server.url}/api/auth/reset-password/abc%00def?callbackURL=%2F`)
  expect(inUrl.status).toBe(400)
  const { email, password } = await insertPasswordAccount(database.pool, { email: 'nul@example.com' })
  const signIn = await postJson('/api/auth/sign-in/email', JSON.stringify({ email, password }))
  const cookie = signIn.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ')
  const update = await postJson('/api/auth/update-user', JSON.stringify({ name: 'Null\u0000Name' }), {
    cookie,
  })
  expect(update.status).toBe(400)
  const revoke = await postJson('/api/auth/revoke-session', JSON.stringify({ token: '\u0000' }), { cookie })
  expect(revoke.status).toBe(400)
  const names = await database.pool.query(`SELECT name FROM users WHERE email = 'nul@example.com'`)
  expect(names.rows[0].name).toBe('Test User')
})

test('a role assignment naming a user id that cannot exist is a 400 with the translated reason', async () => {
  const admin = await insertPasswordAccount(database.pool, { email: 'nul-admin@example.com' })
  await database.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.id])
  const signIn = await postJson('/api/auth/sign-in/email', JSON.stringify(admin))
  const cookie = signIn.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ')
  const response = await postJson('/api/v1/roles', JSON.stringify({ userId: 'user\u0000x', role: 'admin' }), {
    cookie: `${cookie}; lang=en`,
  })
  expect(response.status).toBe(400)
  expect(await response.json()).toMatchObject({
    error: { code: 'invalid', title: 'Role assignment failed', message: 'Choose a valid user and role.' },
  })
})

test('a page action sent something other than a form gets 415, with a translated message', async () => {
  for (const path of [
    '/contact',
    '/auth',
    '/forgot-password',
    '/auth/reset-password?token=x',
    '/auth/mfa',
    '/consent',
  ]) {
    for (const [type, body] of [
      ['application/json', '{"name":"x"}'],
      ['text/plain', 'name=x'],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': type, origin: server.url, cookie: 'lang=en' },
        body,
      })
      expect(response.status, `${type} to ${path}`).toBe(415)
      expect(await response.text()).toBe('This address only accepts a form.')
    }
  }
})

test('Google sign-in that is not configured is a 404 with the reason, not a 502', async () => {
  const response = await fetch(`${server.url}/auth`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie: 'lang=en' },
    body: new URLSearchParams({ intent: 'google' }),
  })
  expect(response.status).toBe(404)
  expect(await response.text()).toContain('Signing in with Google is not available here.')
})

/** The server process's resident memory, in MB (Linux). */
function residentMb(pid: number | undefined): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

test("a list index far above its form's limit is a quick 400 on every list-shaped form; the server keeps answering", async () => {
  const signIn = async (email: string, role: 'user' | 'admin') => {
    const account = await insertPasswordAccount(database.pool, { email, role })
    const token = await insertSession(database.pool, account.id)
    return `${SESSION_COOKIE}=${signedSessionCookie(token, SYSTEM_TEST_SECRET)}; lang=en`
  }
  const customer = await signIn('rows-customer@example.com', 'user')
  const admin = await signIn('rows-admin@example.com', 'admin')
  const someRequest = randomUUID()
  const huge = 99_999_999
  const multipart = (fields: [string, string][]) => {
    const form = new FormData()
    for (const [name, value] of fields) form.append(name, value)
    return form
  }
  const urlencoded = (fields: [string, string][]) => new URLSearchParams(fields)
  const posts: { path: string; cookie: string; body: FormData | URLSearchParams }[] = [
    // The probe's post: one real row and one a hundred million places further.
    ...['/user-dashboard', '/user-dashboard.data'].map((path) => ({
      path,
      cookie: customer,
      body: multipart([
        ['form', 'request'],
        ['items[0].url', 'https://jp.mercari.com/item/a'],
        [`items[${huge}].url`, 'https://jp.mercari.com/item/b'],
      ]),
    })),
    // "Add an item" without JavaScript, at a position no form has.
    {
      path: '/user-dashboard',
      cookie: customer,
      body: multipart([
        ['items[0].url', 'https://jp.mercari.com/item/a'],
        ['__intent__', JSON.stringify({ type: 'insert', payload: { name: 'items', index: huge } })],
      ]),
    },
    {
      path: '/admin-dashboard/rates',
      cookie: admin,
      body: urlencoded([
        ['method', 'economic'],
        [`rows[${huge}].usa`, '1'],
      ]),
    },
    {
      path: `/admin-dashboard/requests/${someRequest}`,
      cookie: admin,
      body: urlencoded([
        ['intent', 'price'],
        ['version', '0'],
        [`items[${huge}].title`, 'x'],
      ]),
    },
    {
      path: `/admin-dashboard/requests/${someRequest}/arrival`,
      cookie: admin,
      body: multipart([
        ['version', '0'],
        [`items[${huge}].weightG`, '100'],
      ]),
    },
    {
      path: '/admin-dashboard/settings',
      cookie: admin,
      body: urlencoded([[`storageReminderDays[${huge}]`, '1']]),
    },
  ]
  const before = residentMb(server.child.pid)
  const answers = posts.map(({ path, cookie, body }) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: server.url, accept: 'text/html' },
      body,
    }).then(async (response) => ({ path, status: response.status, text: await response.text() })),
  )
  // While the hostile posts are in flight, the process still answers.
  const health = await fetch(`${server.url}/healthz`)
  expect(health.status).toBe(200)
  for (const answer of await Promise.all(answers)) {
    expect(answer.status, answer.path).toBe(400)
    if (!answer.path.endsWith('.data')) {
      expect(answer.text, answer.path).toContain('The form has more rows than it allows.')
    }
    // Nothing of the hundred million rows comes back.
    expect(answer.text.length, answer.path).toBeLessThan(200_000)
  }
  // Before the check, one such post grew the process by gigabytes and killed it.
  expect(residentMb(server.child.pid) - before).toBeLessThan(150)
  expect((await database.pool.query('SELECT count(*)::int AS n FROM purchase_requests')).rows[0].n).toBe(0)
})

test('a NUL in any address (staff searches, filters, ids) is a 400 page, not a 500', async () => {
  const account = await insertPasswordAccount(database.pool, {
    email: 'nul-staff@example.com',
    role: 'admin',
  })
  const token = await insertSession(database.pool, account.id)
  const cookie = `${SESSION_COOKIE}=${signedSessionCookie(token, SYSTEM_TEST_SECRET)}; lang=en`
  for (const path of [
    '/admin-dashboard/requests?q=a%00b',
    '/admin-dashboard/shipments?q=a%00b',
    '/admin-dashboard/users?q=a%00b',
    '/admin-dashboard/audit?actor=a%00b',
    '/admin-dashboard/requests?status=quoted%00',
    '/admin-dashboard/messages?cursor=%00',
    '/user-dashboard/requests/%00',
    '/store-guide?category=%00',
  ]) {
    const response = await fetch(`${server.url}${path}`, { headers: { cookie, accept: 'text/html' } })
    expect(response.status, path).toBe(400)
    expect(await response.text(), path).toContain('The request could not be understood.')
  }
  // The same searches without it still work.
  expect((await fetch(`${server.url}/admin-dashboard/requests?q=ab`, { headers: { cookie } })).status).toBe(
    200,
  )
})
