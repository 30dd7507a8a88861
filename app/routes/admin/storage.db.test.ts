import { expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { bookedItems } from '#tests/support/warehouse-fixtures.ts'
import { middleware as staffMiddleware } from './staff-layout.tsx'
import * as storage from './storage.tsx'

// The storage page (docs/decisions/031) through the staff branch's middleware, for every role:
// who sees the overdue items, who may dispose of one, and bad input.

test('overdue items: staff see them, only admins dispose (with a reason); customers and visitors are refused', async () => {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const people = {
    owner: await signedInCaller(pool, { email: 'ana@example.com' }),
    moderator: await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' }),
    admin: await signedInCaller(pool, { email: 'boss@example.com', role: 'admin' }),
  }
  const orders = {
    as: (actor: { id: string; role: 'user' | 'admin' | 'moderator' } | null) => ({
      db,
      actor,
      ...services.orders,
    }),
  }
  const booked = await bookedItems(orders, pool, {
    userId: people.owner.id,
    staff: { id: people.admin.id, role: 'admin' },
  })
  const itemId = booked.itemIds[0] as string
  await pool.query(`UPDATE request_items SET received_at = now() - interval '150 days' WHERE id = $1`, [
    itemId,
  ])
  const staff = (request: Request, handler: (args: never) => unknown) =>
    callRoute(services, staffMiddleware, request, (args) => handler(args as never), {
      context: { language: 'en' },
    })
  const page = (cookie?: string) => staff(pageRequest('/admin-dashboard/storage', { cookie }), storage.loader)
  const dispose = (cookie: string | undefined, fields: Record<string, string>) =>
    staff(formPost('/admin-dashboard/storage', fields, { cookie }), storage.action)
  const status = async () =>
    (await pool.query('SELECT status FROM request_items WHERE id = $1', [itemId])).rows[0].status as string

  expect((await page()).status).toBe(401)
  expect((await page(people.owner.cookie)).status).toBe(403)
  expect(await page(people.moderator.cookie)).toMatchObject({
    status: 200,
    data: { canDispose: false, items: [{ id: itemId, daysOver: 120, daysToDisposal: 0 }] },
  })
  expect((await page(people.admin.cookie)).data).toMatchObject({ canDispose: true })
  // The last free day is written out like the other dates ("November 3, 2026"), not 2026-11-03.
  const [shown] = ((await page(people.admin.cookie)).data as { items: { freeUntilLabel: string }[] }).items
  expect(shown?.freeUntilLabel).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/)

  const reason = 'Reminded twice, no answer'
  expect((await dispose(undefined, { itemId, reason })).status).toBe(401)
  expect((await dispose(people.owner.cookie, { itemId, reason })).status).toBe(403)
  expect((await dispose(people.moderator.cookie, { itemId, reason })).status).toBe(403)
  const empty = await dispose(people.admin.cookie, { itemId, reason: '' })
  expect(empty.status).toBe(400)
  expect(empty.data).toMatchObject({ itemId, fieldErrors: { reason: ['reasonRequired'] } })
  const hostile = await dispose(people.admin.cookie, { itemId, reason: 'x'.repeat(1001) })
  expect(hostile.status).toBe(400)
  expect((await dispose(people.admin.cookie, { itemId: 'not-an-id', reason })).status).toBe(400)
  expect(await status()).toBe('received')
  const done = await dispose(people.admin.cookie, { itemId, reason })
  expect(done.status).toBe(302)
  expect(redirectOf(done)).toEqual({ location: '/admin-dashboard/storage', notice: { name: 'itemDisposed' } })
  expect(await status()).toBe('disposed')
  const again = await dispose(people.admin.cookie, { itemId, reason })
  expect(again.status).toBe(409)
  expect(again.data).toMatchObject({ messageKey: 'errors.reasons.itemNotDisposable' })
})
