import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import { notifications, users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import {
  bellAudience,
  countMyUnread,
  listMyNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  unreadCountQuery,
} from './notification-service.ts'
import { notifyCustomer, notifyStaff, STAFF_NOTIFICATIONS, staffRolesFor } from './notify.ts'

// Staff notifications (docs/decisions/036): one row per staff member who may act on it, their
// own list beside their own orders', the same people e-mailed.

const ana: Actor = { id: 'user-ana', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }
const banned: Actor = { id: 'user-banned', role: 'admin' }

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user' },
    { ...base, id: admin.id, name: 'Admin', email: 'admin@example.com', role: 'admin' },
    { ...base, id: moderator.id, name: 'Mod', email: 'mod@example.com', role: 'moderator' },
    { ...base, id: banned.id, name: 'Gone', email: 'gone@example.com', role: 'admin', banned: true },
  ])
  const as = (actor: Actor | null) => ({ db, actor })
  const staffEmails = async () =>
    (
      await pool.query(
        `SELECT data FROM pgboss.job WHERE name = 'notification.staff-email' ORDER BY created_on`,
      )
    ).rows.map((row) => row.data)
  return { db, pool, orders, as, staffEmails }
}

test('each type goes to the staff whose policy allows its action: money to admins only', () => {
  expect(staffRolesFor('new_request')).toEqual(['admin', 'moderator'])
  expect(staffRolesFor('quote_paid')).toEqual(['admin', 'moderator'])
  expect(staffRolesFor('new_shipment')).toEqual(['admin', 'moderator'])
  expect(staffRolesFor('new_claim')).toEqual(['admin', 'moderator'])
  expect(staffRolesFor('request_cancelled')).toEqual(['admin', 'moderator'])
  expect(staffRolesFor('shipping_paid')).toEqual(['admin', 'moderator'])
  expect(staffRolesFor('shipment_cancelled_by_customer')).toEqual(['admin', 'moderator'])
  expect(staffRolesFor('customer_message')).toEqual(['admin', 'moderator'])
  for (const type of ['payment_held', 'refund_due', 'transfer_reported'] as const) {
    expect(staffRolesFor(type), type).toEqual(['admin'])
  }
  expect(Object.keys(STAFF_NOTIFICATIONS)).toHaveLength(11)
})

test('notifyStaff writes a row for each staff member who may act (not the banned, not customers) and one e-mail job', async () => {
  const { db, orders, as, staffEmails } = await setup()
  await db.transaction((tx) =>
    notifyStaff(tx, orders.jobs, {
      type: 'new_request',
      params: { number: 'PR-000001', customer: 'Ana Pérez', count: 2 },
      link: '/admin-dashboard/requests/x',
    }),
  )
  await db.transaction((tx) =>
    notifyStaff(tx, orders.jobs, {
      type: 'payment_held',
      params: { number: 'PR-000001', amount: 100, currency: 'USD', expectedJpy: 5000 },
      link: '/admin-dashboard/requests/x',
    }),
  )
  const rows = await db
    .select({ userId: notifications.userId, type: notifications.type, audience: notifications.audience })
    .from(notifications)
    .orderBy(notifications.createdAt, notifications.userId)
  expect(rows).toEqual([
    { userId: admin.id, type: 'new_request', audience: 'staff' },
    { userId: moderator.id, type: 'new_request', audience: 'staff' },
    { userId: admin.id, type: 'payment_held', audience: 'staff' },
  ])
  expect(await staffEmails()).toEqual([
    expect.objectContaining({ type: 'new_request', link: '/admin-dashboard/requests/x' }),
    expect.objectContaining({ type: 'payment_held' }),
  ])

  // The admin's list: newest first, with its tone; the moderator's has no money in it.
  const adminList = await listMyNotifications(as(admin), { audience: 'staff' })
  expect(adminList.rows.map((row) => [row.type, row.tone, row.read])).toEqual([
    ['payment_held', 'warning', false],
    ['new_request', 'info', false],
  ])
  expect(
    (await listMyNotifications(as(moderator), { audience: 'staff' })).rows.map((row) => row.type),
  ).toEqual(['new_request'])
  expect(await countMyUnread(as(admin), 'staff')).toBe(2)
  expect(await countMyUnread(as(moderator), 'staff')).toBe(1)

  // A rolled-back change tells no one.
  await db
    .transaction(async (tx) => {
      await notifyStaff(tx, orders.jobs, { type: 'new_claim', params: { number: 'SH-1' }, link: '/x/y' })
      throw new Error('rolled back')
    })
    .catch(() => undefined)
  expect(await countMyUnread(as(admin), 'staff')).toBe(2)
  expect(await staffEmails()).toHaveLength(2)
})

test('a staff member’s two lists stay apart: their own orders’ notices and the staff’s, each read on its own', async () => {
  const { db, orders, as } = await setup()
  // The admin also shops with us.
  await db.transaction((tx) =>
    notifyCustomer(tx, orders.jobs, {
      userId: admin.id,
      type: 'quote_ready',
      params: { number: 'PR-000009', totalJpy: 1000, dueDate: '2026-02-01T00:00:00Z' },
    }),
  )
  await db.transaction((tx) =>
    notifyStaff(tx, orders.jobs, {
      type: 'new_shipment',
      params: { number: 'SH-1' },
      link: '/admin-dashboard/shipments/1',
    }),
  )
  expect((await listMyNotifications(as(admin))).rows.map((row) => row.type)).toEqual(['quote_ready'])
  expect((await listMyNotifications(as(admin), { audience: 'staff' })).rows.map((row) => row.type)).toEqual([
    'new_shipment',
  ])
  expect(await countMyUnread(as(admin))).toBe(1)
  expect(await countMyUnread(as(admin), 'staff')).toBe(1)
  // The bell of staff counts the staff's list; a customer's, their own.
  expect(bellAudience(admin)).toBe('staff')
  expect(bellAudience(moderator)).toBe('staff')
  expect(bellAudience(ana)).toBe('customer')
  expect(bellAudience(null)).toBe('customer')

  // Marking one list read leaves the other; an id of the other list is not found in this one.
  const [staffRow] = (await listMyNotifications(as(admin), { audience: 'staff' })).rows
  expect(await refusal(markNotificationRead(as(admin), staffRow?.id ?? ''))).toMatchObject({
    code: 'not_found',
  })
  expect(await markAllNotificationsRead(as(admin), 'staff')).toBe(1)
  expect(await countMyUnread(as(admin), 'staff')).toBe(0)
  expect(await countMyUnread(as(admin))).toBe(1)
  const [own] = (await listMyNotifications(as(admin))).rows
  await markNotificationRead(as(admin), own?.id ?? '')
  expect(await countMyUnread(as(admin))).toBe(0)
})

test('the staff list is for staff: a customer is refused, an anonymous caller too, and counts 0', async () => {
  const { as } = await setup()
  expect(await refusal(listMyNotifications(as(ana), { audience: 'staff' }))).toMatchObject({
    code: 'forbidden',
  })
  expect(await refusal(markAllNotificationsRead(as(ana), 'staff'))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(markNotificationRead(as(ana), 'x', 'staff'))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(listMyNotifications(as(null), { audience: 'staff' }))).toMatchObject({
    code: 'unauthorized',
  })
  expect(await countMyUnread(as(ana), 'staff')).toBe(0)
  expect(await countMyUnread(as(null), 'staff')).toBe(0)
})

test('a staff notice goes with its request (an account deleted takes its requests and their notices)', async () => {
  const { db, pool, orders, as } = await setup()
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO purchase_requests (user_id, locale) VALUES ($1, 'es') RETURNING id`,
    [ana.id],
  )
  const requestId = rows[0]?.id as string
  await db.transaction((tx) =>
    notifyStaff(tx, orders.jobs, {
      type: 'new_request',
      params: { number: 'PR-1', customer: 'Ana', count: 1 },
      link: `/admin-dashboard/requests/${requestId}`,
      requestId,
    }),
  )
  expect(await countMyUnread(as(admin), 'staff')).toBe(1)
  await db.delete(users).where(eq(users.id, ana.id))
  expect(await countMyUnread(as(admin), 'staff')).toBe(0)
})

test('the staff unread count reads the partial index of unread rows', async () => {
  const { db, pool } = await setup()
  await pool.query(`INSERT INTO users (id, name, email, email_verified, created_at, updated_at)
    SELECT 'u-' || g, 'U', 'u' || g || '@example.com', true, now(), now() FROM generate_series(1, 200) g`)
  await pool.query(`INSERT INTO notifications (user_id, audience, type, params, read_at)
    SELECT CASE WHEN g % 3 = 0 THEN 'user-admin' ELSE 'u-' || (g % 200 + 1) END,
           CASE WHEN g % 3 = 0 THEN 'staff' ELSE 'customer' END,
           'new_request', '{}', CASE WHEN g % 10 = 0 THEN NULL ELSE now() END
    FROM generate_series(1, 20000) g`)
  await pool.query('ANALYZE notifications')
  const query = unreadCountQuery(db, admin.id, 'staff').toSQL()
  const plan = await pool.query(`EXPLAIN ${query.sql}`, query.params)
  expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('notifications_unread_idx')
})
