import { expect, test } from 'vitest'
import { createAddress } from '#core/customers/profile-service.ts'
import { submitRequest } from '#core/orders/request-service.ts'
import { createTestDatabase } from '#tests/db.ts'
import { SESSION_COOKIE, signedSessionCookie } from '#tests/support/accounts.ts'
import {
  callFileRoute,
  createTestServices,
  pageRequest,
  signedInCaller,
} from '#tests/support/route-context.ts'
import * as exportRoute from './export.ts'
import * as accountLayout from './layout.tsx'

// "Download my data" called directly: who may download, and whose data comes back.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  // The account branch's middleware decides who is asking, then the route's answers the file; a
  // browser (the download link) refused by the guard gets the guard page instead, a script a text.
  const download = (cookie?: string, accept = 'text/html,*/*;q=0.8') => {
    const request = pageRequest('/account/export', { cookie })
    request.headers.set('accept', accept)
    return callFileRoute(services, accountLayout, exportRoute, request)
  }
  const signedIn = (email: string) => signedInCaller(pool, { email })
  return { pool, db, services, download, signedIn }
}

const LOGIN_REQUIRED = { status: 401, data: { guard: 'login', redirectTo: '/account/export' } }

test('an anonymous request is refused with 401 and the page to come back to after signing in', async () => {
  const { download } = await setup()
  expect(await download()).toMatchObject(LOGIN_REQUIRED)
  expect(await download('lang=en; currency=USD')).toMatchObject(LOGIN_REQUIRED)
  expect(await download(undefined, 'application/json')).toMatchObject({
    status: 401,
    data: { error: { code: 'unauthorized', message: 'Inicia sesión para continuar.' } },
  })
})

test('a session cookie that is forged, unsigned, expired or for a deleted session is refused with 401', async () => {
  const { pool, download, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  expect(
    await download(`${SESSION_COOKIE}=${signedSessionCookie(ana.token, 'not-the-secret-not-the-secret-00')}`),
  ).toMatchObject(LOGIN_REQUIRED)
  expect(await download(`${SESSION_COOKIE}=${ana.token}`)).toMatchObject(LOGIN_REQUIRED)

  const expired = await signedIn('old@example.com')
  await pool.query(`UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE token = $1`, [
    expired.token,
  ])
  expect(await download(expired.cookie)).toMatchObject(LOGIN_REQUIRED)

  const revoked = await signedIn('gone@example.com')
  await pool.query('DELETE FROM sessions WHERE token = $1', [revoked.token])
  expect(await download(revoked.cookie)).toMatchObject(LOGIN_REQUIRED)
})

test('a signed-in customer downloads their own data as a private JSON attachment, and no one else’s', async () => {
  const { db, services, download, signedIn } = await setup()
  const ana = await signedIn('ana@example.com')
  const luis = await signedIn('luis@example.com')
  for (const [user, url] of [
    [ana, 'https://jp.mercari.com/item/ana'],
    [luis, 'https://jp.mercari.com/item/luis'],
  ] as const) {
    await submitRequest(
      { db, actor: { id: user.id, role: 'user' }, ...services.orders },
      { items: [{ url, quantity: 1 }] },
      { locale: 'es' },
    )
  }
  for (const [user, city] of [
    [ana, 'Lima'],
    [luis, 'Quito'],
  ] as const) {
    await createAddress(
      { db, actor: { id: user.id, role: 'user' } },
      {
        fullName: user.email.split('@')[0] ?? 'x',
        street: 'Calle 1',
        city,
        country: 'PE',
        phone: '+51 1 234 5678',
        makeDefault: false,
      },
    )
  }
  const answer = await download(ana.cookie)
  expect(answer.status).toBe(200)
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
  expect(answer.headers.get('content-disposition')).toBe('attachment; filename="my-data.json"')
  expect(answer.headers.get('cache-control')).toBe('private, no-store')
  const data = answer.data as { profile: { email: string }; purchaseRequests: unknown[] }
  expect(data.profile.email).toBe('ana@example.com')
  expect(data.purchaseRequests).toEqual([
    expect.objectContaining({
      status: 'submitted',
      items: [expect.objectContaining({ url: 'https://jp.mercari.com/item/ana', quantity: 1 })],
      history: [expect.objectContaining({ event: 'submit', toStatus: 'submitted' })],
    }),
  ])
  expect(data).toMatchObject({
    addresses: [{ city: 'Lima', country: 'PE', isDefault: true }],
    notifications: [{ type: 'request_received', params: { number: expect.stringMatching(/^PR-/) } }],
  })
  expect(JSON.stringify(data)).not.toContain('Quito')
  expect(JSON.stringify(data)).not.toContain('luis@example.com')
  expect(JSON.stringify(data)).not.toContain('item/luis')
  expect(JSON.stringify(data)).not.toMatch(/argon2|password|token/i)
})

test('a staff member’s download has their own orders’ notifications, not the staff’s notices about other customers (ADR 036)', async () => {
  const { pool, db, services, download } = await setup()
  const staff = await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' })
  const customer = await signedInCaller(pool, { email: 'carla@example.com' })
  // Carla's request tells staff (the moderator's list); the moderator's own tells them as a customer.
  for (const user of [customer, staff]) {
    await submitRequest(
      { db, actor: { id: user.id, role: user.id === staff.id ? 'moderator' : 'user' }, ...services.orders },
      { items: [{ url: `https://jp.mercari.com/item/${user.email}`, quantity: 1 }] },
      { locale: 'es' },
    )
  }
  const data = (await download(staff.cookie)).data as { notifications: { type: string }[] }
  expect(data.notifications.map((row) => row.type)).toEqual(['request_received'])
  expect(JSON.stringify(data)).not.toContain('carla')
})
