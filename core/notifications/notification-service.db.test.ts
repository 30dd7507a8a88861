import { eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { notifications, users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import {
  countMyUnread,
  listMyNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  NOTIFICATIONS_PAGE_SIZE,
  UNREAD_COUNT_CAP,
  unreadCountQuery,
} from './notification-service.ts'
import { notifyCustomer } from './notify.ts'

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user' },
    { ...base, id: bruno.id, name: 'Bruno Díaz', email: 'bruno@example.com', role: 'user' },
  ])
  /** `n` notifications for `userId`, one second apart, the last one newest. */
  const seed = async (userId: string, n: number, start = Date.UTC(2026, 0, 1)) => {
    if (n === 0) return
    await db.insert(notifications).values(
      Array.from({ length: n }, (_, index) => ({
        userId,
        type: 'request_received',
        params: { number: `PR-${String(index + 1).padStart(6, '0')}` },
        link: '/user-dashboard/requests',
        createdAt: new Date(start + index * 1000),
      })),
    )
  }
  return { db, pool, orders, seed, as: (actor: Actor | null) => ({ db, actor }) }
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (isAppError(error)) return { code: error.code, reason: error.details.reason }
    throw error
  }
  throw new Error('expected a refusal')
}

test('a notification written by notifyCustomer is listed, counted and marked read by its owner only', async () => {
  const { db, orders, as } = await setup()
  const id = await db.transaction((tx) =>
    notifyCustomer(tx, orders.jobs, {
      userId: ana.id,
      type: 'quote_ready',
      params: { number: 'PR-000001', totalJpy: 12345, dueDate: '2026-02-01' },
      link: '/user-dashboard/requests',
    }),
  )
  const page = await listMyNotifications(as(ana))
  expect(page).toEqual({
    nextCursor: null,
    rows: [
      {
        id,
        tone: 'success',
        type: 'quote_ready',
        params: { number: 'PR-000001', totalJpy: 12345, dueDate: '2026-02-01' },
        link: '/user-dashboard/requests',
        read: false,
        createdAt: expect.any(Date),
      },
    ],
  })
  expect(await countMyUnread(as(ana))).toBe(1)
  expect((await listMyNotifications(as(bruno))).rows).toEqual([])
  expect(await countMyUnread(as(bruno))).toBe(0)

  // Bruno cannot mark Ana's: it answers like an id that does not exist, and stays unread.
  expect(await refusal(markNotificationRead(as(bruno), id))).toEqual({
    code: 'not_found',
    reason: 'notificationNotFound',
  })
  expect(await countMyUnread(as(ana))).toBe(1)

  await markNotificationRead(as(ana), id)
  const [first] = await db.select({ readAt: notifications.readAt }).from(notifications)
  expect(first?.readAt).toBeInstanceOf(Date)
  expect(await countMyUnread(as(ana))).toBe(0)
  expect((await listMyNotifications(as(ana))).rows[0]?.read).toBe(true)

  // Again: still read, and the first time is kept.
  await markNotificationRead(as(ana), id)
  const [again] = await db.select({ readAt: notifications.readAt }).from(notifications)
  expect(again?.readAt?.getTime()).toBe(first?.readAt?.getTime())
})

test('bad ids are not found, never an error of the database; nobody signed in is refused', async () => {
  const { as, seed } = await setup()
  await seed(ana.id, 1)
  for (const id of [
    '',
    'abc',
    '1',
    "' or 1=1 --",
    '00000000-0000-0000-0000-000000000000',
    `${'a'.repeat(36)}`,
    'x'.repeat(10_000),
  ]) {
    expect(await refusal(markNotificationRead(as(ana), id)), id.slice(0, 40)).toEqual({
      code: 'not_found',
      reason: 'notificationNotFound',
    })
  }
  expect(await refusal(markNotificationRead(as(ana), 42 as unknown as string))).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(listMyNotifications(as(null)))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(markAllNotificationsRead(as(null)))).toMatchObject({ code: 'unauthorized' })
  expect(await countMyUnread(as(null))).toBe(0)
  expect(await countMyUnread(as(ana))).toBe(1)
})

test('the list is newest first, 20 a page, and the cursor reaches every row exactly once', async () => {
  const { db, as, seed } = await setup()
  await seed(ana.id, 45)
  await seed(bruno.id, 3)
  // Two rows at the very same millisecond: the id breaks the tie, none is skipped or repeated.
  await db.insert(notifications).values(
    [0, 1].map(() => ({
      userId: ana.id,
      type: 'request_cancelled',
      params: { number: 'PR-999999' },
      createdAt: new Date(Date.UTC(2026, 0, 1) + 20_500),
    })),
  )
  const seen: string[] = []
  let cursor: string | null = null
  let pages = 0
  let previous = Number.POSITIVE_INFINITY
  do {
    const page = await listMyNotifications(as(ana), { cursor })
    expect(page.rows.length).toBeLessThanOrEqual(NOTIFICATIONS_PAGE_SIZE)
    for (const row of page.rows) {
      expect(row.createdAt.getTime()).toBeLessThanOrEqual(previous)
      previous = row.createdAt.getTime()
      seen.push(row.id)
    }
    cursor = page.nextCursor
    pages += 1
  } while (cursor)
  expect(pages).toBe(3)
  expect(seen).toHaveLength(47)
  expect(new Set(seen).size).toBe(47)
  const first = await listMyNotifications(as(ana))
  expect(first.rows[0]?.params).toEqual({ number: 'PR-000045' })

  for (const cursor of ['nonsense', '123', '1.2', `1.${'z'.repeat(36)}`, `${'9'.repeat(16)}.x`]) {
    expect(await refusal(listMyNotifications(as(ana), { cursor }))).toMatchObject({ code: 'invalid' })
  }
})

test('the unread count stops at 100 (shown as "99+") and uses the partial index', async () => {
  const { db, pool, as, seed } = await setup()
  await seed(ana.id, 130)
  expect(await countMyUnread(as(ana))).toBe(UNREAD_COUNT_CAP + 1)
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(sql`${notifications.userId} = ${ana.id} and ${notifications.createdAt} < '2026-01-01T00:01:45Z'`)
  expect(await countMyUnread(as(ana))).toBe(25)

  // Many rows for other users, so the planner prefers the index as it would in production.
  await pool.query(`INSERT INTO users (id, name, email, email_verified, created_at, updated_at)
    SELECT 'u-' || g, 'U', 'u' || g || '@example.com', true, now(), now() FROM generate_series(1, 200) g`)
  await pool.query(`INSERT INTO notifications (user_id, type, params, read_at)
    SELECT 'u-' || (g % 200 + 1), 'request_received', '{}', CASE WHEN g % 10 = 0 THEN NULL ELSE now() END
    FROM generate_series(1, 20000) g`)
  await pool.query('ANALYZE notifications')
  const query = unreadCountQuery(db, ana.id).toSQL()
  const plan = await pool.query(`EXPLAIN ${query.sql}`, query.params)
  const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n')
  expect(text).toContain('notifications_unread_idx')
})

test('mark all read touches only the caller’s unread rows and keeps the time of those already read', async () => {
  const { db, as, seed } = await setup()
  await seed(ana.id, 5)
  await seed(bruno.id, 4)
  const [oldest] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.userId, ana.id))
    .orderBy(notifications.createdAt)
    .limit(1)
  await markNotificationRead(as(ana), oldest?.id ?? '')
  const [before] = await db
    .select({ readAt: notifications.readAt })
    .from(notifications)
    .where(eq(notifications.id, oldest?.id ?? ''))

  expect(await markAllNotificationsRead(as(ana))).toBe(4)
  expect(await countMyUnread(as(ana))).toBe(0)
  expect(await countMyUnread(as(bruno))).toBe(4)
  const [after] = await db
    .select({ readAt: notifications.readAt })
    .from(notifications)
    .where(eq(notifications.id, oldest?.id ?? ''))
  expect(after?.readAt?.getTime()).toBe(before?.readAt?.getTime())
  // Twice (a double click, a second tab): nothing left to mark, no error.
  expect(await markAllNotificationsRead(as(ana))).toBe(0)
})
