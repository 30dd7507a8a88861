import { expect, test } from 'vitest'
import { notifyCustomer, notifyStaff } from '#core/notifications/notify.ts'
import { createTestDatabase } from '#tests/db.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  type routeArgs,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { loader as dashboardLoader } from './dashboard.tsx'
import { action as notificationsAction, loader as notificationsLoader } from './notifications.tsx'
import { loader as queueLoader } from './requests.tsx'
import { loader as shipmentsLoader } from './shipments.tsx'
import { middleware } from './staff-layout.tsx'

// The admin area's landing page (the work for today) and the staff's notifications, through the
// staff branch's middleware, for every role (docs/decisions/036).

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const signedIn = (email: string, role: 'user' | 'admin' | 'moderator' = 'user') =>
    signedInCaller(pool, { email, role })
  const run = (
    request: Request,
    handler: (args: ReturnType<typeof routeArgs>) => unknown,
    language: 'es' | 'en' = 'en',
  ) => callRoute(services, middleware, request, handler, { context: { language } })
  const page = (path: string, handler: (args: never) => unknown, cookie?: string, language?: 'es' | 'en') =>
    run(pageRequest(path, { cookie }), (args) => handler(args as never), language)
  const post = (path: string, fields: Record<string, string>, cookie?: string) =>
    run(formPost(path, fields, { cookie }), (args) => notificationsAction(args as never))
  const tellStaff = () =>
    db.transaction((tx) =>
      notifyStaff(tx, services.orders.jobs, {
        type: 'payment_held',
        params: { number: 'PR-000001', amount: 50, currency: 'USD', expectedJpy: 7400 },
        link: '/admin-dashboard/requests/x',
      }),
    )
  return { db, pool, services, signedIn, page, post, tellStaff }
}

test('anonymous visitors get the login guard, customers the admin guard, on both pages; their posts are refused', async () => {
  const { signedIn, page, post } = await setup()
  expect(await page('/admin-dashboard', dashboardLoader)).toMatchObject({
    status: 401,
    data: { guard: 'login', redirectTo: '/admin-dashboard' },
  })
  expect(await page('/admin-dashboard/notifications', notificationsLoader)).toMatchObject({
    status: 401,
    data: { guard: 'login' },
  })
  expect(await post('/admin-dashboard/notifications', { intent: 'read-all' })).toMatchObject({ status: 401 })
  const customer = await signedIn('ana@example.com')
  expect(await page('/admin-dashboard', dashboardLoader, customer.cookie)).toMatchObject({
    status: 403,
    data: { guard: 'admin', role: 'user' },
  })
  expect(await page('/admin-dashboard/notifications', notificationsLoader, customer.cookie)).toMatchObject({
    status: 403,
  })
  expect(await post('/admin-dashboard/notifications', { intent: 'read-all' }, customer.cookie)).toMatchObject(
    { status: 403 },
  )
})

test('the work for today: a moderator sees their kinds of work, an admin all, counts written in the page’s language', async () => {
  const { pool, signedIn, page } = await setup()
  const moderator = await signedIn('mod@example.com', 'moderator')
  const admin = await signedIn('boss@example.com', 'admin')
  const customer = await signedIn('ana@example.com')
  await pool.query(
    `INSERT INTO purchase_requests (user_id, locale) SELECT $1, 'es' FROM generate_series(1, 1200)`,
    [customer.id],
  )
  const asModerator = await page('/admin-dashboard', dashboardLoader, moderator.cookie)
  expect(asModerator.status).toBe(200)
  const kinds = (answer: { data: unknown }) =>
    (answer.data as { work: { kind: string; countLabel: string }[] }).work.map((entry) => [
      entry.kind,
      entry.countLabel,
    ])
  expect(kinds(asModerator)).toEqual([
    ['quote', '1,200'],
    ['buy', '0'],
    ['receive', '0'],
    ['pack', '0'],
    ['send', '0'],
    ['claims', '0'],
    ['conversations', '0'],
  ])
  const asAdmin = await page('/admin-dashboard', dashboardLoader, admin.cookie, 'es')
  expect(kinds(asAdmin).map(([kind]) => kind)).toEqual([
    'quote',
    'payments',
    'buy',
    'receive',
    'pack',
    'send',
    'claims',
    'messages',
    'conversations',
  ])
  expect(kinds(asAdmin)[0]).toEqual(['quote', '1.200'])
})

test('the links’ filters: the queue narrowed to work, the shipments to claims; an unknown filter is ignored', async () => {
  const { signedIn, page } = await setup()
  const moderator = await signedIn('mod@example.com', 'moderator')
  expect(await page('/admin-dashboard/requests?work=to_buy', queueLoader, moderator.cookie)).toMatchObject({
    status: 200,
    data: { work: 'to_buy', workCount: 0 },
  })
  expect(
    await page('/admin-dashboard/requests?work=to_receive', queueLoader, moderator.cookie),
  ).toMatchObject({ status: 200, data: { work: 'to_receive', workCount: 0 } })
  expect(
    await page('/admin-dashboard/requests?work=everything', queueLoader, moderator.cookie),
  ).toMatchObject({ status: 200, data: { work: null, workCount: null } })
  expect(
    await page('/admin-dashboard/shipments?claim=open', shipmentsLoader, moderator.cookie),
  ).toMatchObject({ status: 200, data: { claim: true, rows: [] } })
})

test('staff notifications: each reads their own list, marks one or all read; their own orders’ notices stay apart', async () => {
  const { db, services, signedIn, page, post, tellStaff } = await setup()
  const moderator = await signedIn('mod@example.com', 'moderator')
  const admin = await signedIn('boss@example.com', 'admin')
  await tellStaff()
  await db.transaction((tx) =>
    notifyStaff(tx, services.orders.jobs, {
      type: 'new_request',
      params: { number: 'PR-000002', customer: 'Ana', count: 1 },
      link: '/admin-dashboard/requests/y',
    }),
  )
  // The admin shops with us too.
  await db.transaction((tx) =>
    notifyCustomer(tx, services.orders.jobs, {
      userId: admin.id,
      type: 'request_received',
      params: { number: 'PR-000003' },
    }),
  )
  const list = await page('/admin-dashboard/notifications', notificationsLoader, admin.cookie)
  expect(list.status).toBe(200)
  expect(list.data).toMatchObject({
    unread: 2,
    ownUnread: 1,
    notifications: [
      {
        type: 'new_request',
        read: false,
        link: '/admin-dashboard/requests/y',
        title: 'New request PR-000002 from Ana',
        body: '1 link to quote.',
      },
      {
        type: 'payment_held',
        tone: 'warning',
        // Written on the server in the page's language, amounts as Intl writes them.
        title: 'Payment held for review: PR-000001',
        body: expect.stringMatching(/^The provider reported USD\s50\.00; the invoice asks JPY\s7,400\./),
      },
    ],
  })
  // Money is not the moderator's: only the new request.
  expect(await page('/admin-dashboard/notifications', notificationsLoader, moderator.cookie)).toMatchObject({
    data: { unread: 1, ownUnread: 0, notifications: [{ type: 'new_request' }] },
  })

  const first = (list.data as { notifications: { id: string }[] }).notifications[0]?.id ?? ''
  // The moderator cannot mark the admin's: not found, and nothing changes.
  expect(
    await post('/admin-dashboard/notifications', { intent: 'read', id: first }, moderator.cookie),
  ).toMatchObject({
    status: 404,
  })
  const marked = await post('/admin-dashboard/notifications', { intent: 'read', id: first }, admin.cookie)
  expect(marked.status).toBe(302)
  expect(redirectOf(marked)).toEqual({
    location: '/admin-dashboard/notifications',
    notice: { name: 'notificationRead' },
  })
  expect(await page('/admin-dashboard/notifications', notificationsLoader, admin.cookie)).toMatchObject({
    data: { unread: 1, ownUnread: 1 },
  })
  expect(await post('/admin-dashboard/notifications', { intent: 'read-all' }, admin.cookie)).toMatchObject({
    status: 302,
  })
  expect(await page('/admin-dashboard/notifications', notificationsLoader, admin.cookie)).toMatchObject({
    data: { unread: 0, ownUnread: 1 },
  })
  expect(await post('/admin-dashboard/notifications', { intent: 'nonsense' }, admin.cookie)).toMatchObject({
    status: 400,
  })
})
