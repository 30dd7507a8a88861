import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import { notifications } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { bookedItems, insertPeople } from '#tests/support/warehouse-fixtures.ts'
import { sendStorageReminders } from './storage-reminders.ts'

// The daily storage reminders with a clock the test sets: 7 and 1 days before free storage ends
// and once when it has, one notification (and one e-mail job) per customer and threshold, never
// twice, nothing for items waiting in a shipment.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }

// Arrived on 1 March 2026, 10:00 in Japan: 30 free days are 1–30 March.
const ARRIVED = new Date('2026-03-01T01:00:00Z')
const onDay = (day: number) => new Date(Date.UTC(2026, 2, day, 1, 0))

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  await insertPeople(db, [
    { ...ana, name: 'Ana' },
    { ...bruno, name: 'Bruno', language: 'en' },
    { ...admin, name: 'Admin' },
  ])
  const booked = async (userId: string, count: number) => {
    const { itemIds } = await bookedItems(orders, pool, {
      userId,
      staff: admin,
      items: Array.from({ length: count }, () => ({ unitPriceJpy: 1000 })),
    })
    await pool.query('UPDATE request_items SET received_at = $1 WHERE id = ANY($2)', [ARRIVED, itemIds])
    return itemIds
  }
  const anas = await booked(ana.id, 2)
  const brunos = await booked(bruno.id, 1)
  const run = (day: number) =>
    sendStorageReminders({ db, jobs: orders.jobs, settings: orders.settings }, onDay(day))
  const told = async (type: string) =>
    (await db.select().from(notifications).where(eq(notifications.type, type))).map((row) => [
      row.userId,
      row.params,
    ])
  return { db, pool, run, told, anas, brunos, settings: orders.settings }
}

test('7 days before, 1 day before and once ended: one notification per customer, never twice, e-mailed once', async () => {
  const { pool, run, told } = await setup()
  expect(await run(23)).toEqual({ reminded: 0, ended: 0 }) // 8 days left
  const emails = await countJobs(pool, 'notification.email')
  expect(await run(24)).toEqual({ reminded: 2, ended: 0 }) // 7 days left
  expect(await told('storage_reminder')).toEqual(
    [
      [ana.id, { count: 2, days: 7, lastDay: '2026-03-30' }],
      [bruno.id, { count: 1, days: 7, lastDay: '2026-03-30' }],
    ].sort(),
  )
  expect(await countJobs(pool, 'notification.email')).toBe(emails + 2)
  // The same day again, and the days between: nothing new.
  expect(await run(24)).toEqual({ reminded: 0, ended: 0 })
  expect(await run(28)).toEqual({ reminded: 0, ended: 0 })
  expect(await run(30)).toEqual({ reminded: 2, ended: 0 }) // 1 day left
  expect(await run(31)).toEqual({ reminded: 0, ended: 2 }) // ended: from today the fee
  expect(await told('storage_ended')).toEqual(
    expect.arrayContaining([
      [ana.id, { count: 2, feeJpy: 100, disposalDays: 90 }],
      [bruno.id, { count: 1, feeJpy: 100, disposalDays: 90 }],
    ]),
  )
  expect(await run(31)).toEqual({ reminded: 0, ended: 0 })
  expect(await run(40)).toEqual({ reminded: 0, ended: 0 })
  expect(await countJobs(pool, 'notification.email')).toBe(emails + 6)
})

test('items waiting in a shipment are not reminded; a missed day sends only the nearest reminder', async () => {
  const { pool, run, told, anas } = await setup()
  await pool.query('UPDATE request_items SET reserved_at = $1 WHERE id = ANY($2)', [onDay(10), anas])
  // The job did not run until 1 day was left: one reminder ("1 day"), not "7" as well.
  expect(await run(30)).toEqual({ reminded: 1, ended: 0 })
  expect(await told('storage_reminder')).toEqual([[bruno.id, { count: 1, days: 1, lastDay: '2026-03-30' }]])
  expect(await run(24)).toEqual({ reminded: 0, ended: 0 })
})

test('two processes running the job at once tell each customer once', async () => {
  const { run, told } = await setup()
  const results = await Promise.all([run(24), run(24)])
  expect(results.reduce((sum, result) => sum + result.reminded, 0)).toBe(2)
  expect((await told('storage_reminder')).length).toBe(2)
})

test('the reminder days are a setting: none configured sends only the end', async () => {
  const { run, told, settings } = await setup()
  await settings.update({ storageReminderDays: [] })
  expect(await run(30)).toEqual({ reminded: 0, ended: 0 })
  expect(await run(31)).toEqual({ reminded: 0, ended: 2 })
  expect(await told('storage_reminder')).toEqual([])
})
