import { and, eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import {
  invoices,
  notifications,
  orderEvents,
  purchaseRequests,
  requestItems,
  stores,
  users,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { REQUEST_STATUSES } from './request-machine.ts'
import type { SubmitRequestInput } from './request-schemas.ts'
import {
  cancelRequest,
  getRequest,
  listMyRequests,
  listRequestQueue,
  QUEUE_SEARCH_COUNT_LIMIT,
  REQUESTS_PAGE_SIZE,
  submitRequest,
} from './request-service.ts'

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user' },
    { ...base, id: bruno.id, name: 'Bruno Díaz', email: 'bruno@example.com', role: 'user' },
    { ...base, id: admin.id, name: 'Admin', email: 'admin@example.com', role: 'admin' },
    { ...base, id: moderator.id, name: 'Mod', email: 'mod@example.com', role: 'moderator' },
  ])
  await db.insert(stores).values({
    slug: 'mercari',
    name: 'Mercari',
    url: 'https://jp.mercari.com',
    descriptionEs: 'x',
    descriptionEn: 'x',
    logoText: 'M',
    logoColor: '#ff0000',
  })
  const counts = async () => ({
    requests: (await db.select().from(purchaseRequests)).length,
    items: (await db.select().from(requestItems)).length,
    events: (await db.select().from(orderEvents)).length,
  })
  return { db, pool, orders, counts }
}

const TWO_LINKS: SubmitRequestInput = {
  items: [
    { url: 'https://jp.mercari.com/item/m123', quantity: 2, notes: 'Blue, size M' },
    { url: 'https://www.amazon.co.jp/dp/B0TEST', quantity: 1 },
  ],
  note: 'Gift wrap if possible',
}

test('submit writes the request, its items and its first history row together', async () => {
  const { db, pool, orders, counts } = await setup()
  const { id, number } = await submitRequest(orders.as(ana), TWO_LINKS, { locale: 'es' })
  expect(number).toMatch(/^PR-\d{6}$/)
  const [request] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, id))
  expect(request).toMatchObject({ userId: ana.id, status: 'submitted', locale: 'es', version: 0 })
  expect(request?.customerNote).toBe('Gift wrap if possible')
  const items = await db.select().from(requestItems).orderBy(requestItems.position)
  expect(
    items.map(({ position, shopHost, quantity, notes, status }) => ({
      position,
      shopHost,
      quantity,
      notes,
      status,
    })),
  ).toEqual([
    { position: 1, shopHost: 'jp.mercari.com', quantity: 2, notes: 'Blue, size M', status: 'pending' },
    { position: 2, shopHost: 'amazon.co.jp', quantity: 1, notes: null, status: 'pending' },
  ])
  expect(items[0]?.storeId).not.toBeNull()
  expect(items[1]?.storeId).toBeNull()
  expect(await db.select().from(orderEvents)).toEqual([
    expect.objectContaining({
      entityType: 'purchase_request',
      entityId: id,
      event: 'submit',
      fromStatus: null,
      toStatus: 'submitted',
      actorKind: 'customer',
      actorId: ana.id,
      visibleToCustomer: true,
    }),
  ])
  expect(await counts()).toEqual({ requests: 1, items: 2, events: 1 })
  // The customer is told in the app and by e-mail; staff too, each in their own list (ADR 036):
  // rows and jobs of the same transaction.
  expect(await db.select().from(notifications).orderBy(notifications.userId)).toEqual([
    expect.objectContaining({
      userId: admin.id,
      audience: 'staff',
      type: 'new_request',
      params: { number, customer: 'Ana Pérez', count: 2 },
      link: `/admin-dashboard/requests/${id}`,
    }),
    expect.objectContaining({
      userId: ana.id,
      audience: 'customer',
      type: 'request_received',
      params: { number },
      link: `/user-dashboard/requests/${id}`,
      readAt: null,
    }),
    expect.objectContaining({ userId: moderator.id, audience: 'staff', type: 'new_request' }),
  ])
  expect(await countJobs(pool, 'notification.email')).toBe(1)
  expect(await countJobs(pool, 'notification.staff-email')).toBe(1)
})

test('bad input is refused by field and nothing is written', async () => {
  const { orders, counts } = await setup()
  const item = { url: 'https://jp.mercari.com/item/m1', quantity: 1 }
  const cases: [unknown, Record<string, string[]>][] = [
    [{ items: [{ ...item, url: 'javascript:alert(1)' }] }, { 'items[0].url': ['urlScheme'] }],
    [{ items: [{ ...item, url: 'data:text/html,<b>x</b>' }] }, { 'items[0].url': ['urlScheme'] }],
    [{ items: [{ ...item, url: 'file:///etc/passwd' }] }, { 'items[0].url': ['urlScheme'] }],
    [{ items: [{ ...item, url: `https://x.jp/${'a'.repeat(2000)}` }] }, { 'items[0].url': ['urlTooLong'] }],
    [{ items: [{ ...item, quantity: 0 }] }, { 'items[0].quantity': ['quantityRange'] }],
    [{ items: [{ ...item, quantity: '-1' }] }, { 'items[0].quantity': ['quantityRange'] }],
    [{ items: [{ ...item, quantity: '1.5' }] }, { 'items[0].quantity': ['quantityWhole'] }],
    [{ items: [{ ...item, quantity: 100 }] }, { 'items[0].quantity': ['quantityRange'] }],
    [{ items: [{ ...item, quantity: 'two' }] }, { 'items[0].quantity': ['quantityWhole'] }],
    [{ items: [{ ...item, notes: 'n'.repeat(2001) }] }, { 'items[0].notes': ['notesTooLong'] }],
    [{ items: Array.from({ length: 11 }, () => item) }, { items: ['tooManyItems'] }],
    [{ items: [] }, { items: ['noItems'] }],
  ]
  for (const [input, fields] of cases) {
    const answer = await refusal(submitRequest(orders.as(ana), input as SubmitRequestInput, { locale: 'en' }))
    expect(answer, JSON.stringify(input).slice(0, 80)).toEqual({
      code: 'invalid',
      reason: 'requestInvalid',
      fields,
    })
  }
  expect(await refusal(submitRequest(orders.as(null), TWO_LINKS, { locale: 'en' }))).toMatchObject({
    code: 'unauthorized',
  })
  expect(await counts()).toEqual({ requests: 0, items: 0, events: 0 })
  // At the limits exactly: ten items, 99 of one, 2,000 characters of notes.
  await submitRequest(
    orders.as(ana),
    { items: Array.from({ length: 10 }, () => ({ ...item, quantity: 99, notes: 'n'.repeat(2000) })) },
    { locale: 'en' },
  )
  expect(await counts()).toEqual({ requests: 1, items: 10, events: 1 })
})

test('the database refuses what the schema refuses, and history cannot be edited', async () => {
  const { db, orders } = await setup()
  const { id } = await submitRequest(orders.as(ana), TWO_LINKS, { locale: 'en' })
  await expect(
    db.insert(requestItems).values({ requestId: id, position: 3, url: 'javascript:x', shopHost: 'x' }),
  ).rejects.toThrow()
  await expect(
    db
      .insert(requestItems)
      .values({ requestId: id, position: 3, url: 'https://x.jp', shopHost: 'x', quantity: 100 }),
  ).rejects.toThrow()
  await expect(db.update(orderEvents).set({ note: 'rewritten' })).rejects.toMatchObject({
    cause: expect.objectContaining({ message: expect.stringMatching(/append-only/) }),
  })
  // Every status of the machine is one the table takes.
  for (const status of REQUEST_STATUSES)
    await db.update(purchaseRequests).set({ status }).where(eq(purchaseRequests.id, id))
  await expect(db.update(purchaseRequests).set({ status: 'lost' })).rejects.toThrow()
  // Deleting the customer takes the requests, their items and their history.
  await db.delete(users).where(eq(users.id, ana.id))
  expect(await db.select().from(requestItems)).toEqual([])
  expect(await db.select().from(orderEvents)).toEqual([])
})

test("a customer sees their own request; someone else's id is not found, as is an id that does not exist", async () => {
  const { db, orders } = await setup()
  const { id } = await submitRequest(orders.as(ana), TWO_LINKS, { locale: 'en' })
  const mine = await getRequest({ db, actor: ana }, id)
  expect(mine).toMatchObject({ id, status: 'submitted', version: 0, customer: null, actions: ['cancel'] })
  expect(mine.items.map((item) => item.storeName)).toEqual(['Mercari', null])
  expect(mine.events.map((event) => event.event)).toEqual(['submit'])

  for (const other of [id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
    expect(await refusal(getRequest({ db, actor: bruno }, other))).toMatchObject({
      code: 'not_found',
      reason: 'requestNotFound',
    })
  }
  expect(await refusal(cancelRequest(orders.as(bruno), { id, version: 0 }))).toMatchObject({
    code: 'not_found',
  })

  for (const staff of [admin, moderator]) {
    const seen = await getRequest({ db, actor: staff }, id)
    expect(seen.customer).toEqual({ id: ana.id, name: 'Ana Pérez', email: 'ana@example.com' })
    expect(seen.actions).toEqual(['quote', 'reject', 'cancel'])
  }
})

test('cancel: the owner cancels a pending request once; a second click, even at the same time, is a conflict', async () => {
  const { db, orders } = await setup()
  const { id } = await submitRequest(orders.as(ana), TWO_LINKS, { locale: 'en' })
  const results = await Promise.allSettled([
    cancelRequest(orders.as(ana), { id, version: 0 }),
    cancelRequest(orders.as(ana), { id, version: 0 }),
  ])
  const applied = results.filter((result) => result.status === 'fulfilled')
  const refused = results.filter((result) => result.status === 'rejected')
  expect(applied).toEqual([{ status: 'fulfilled', value: { status: 'cancelled', version: 1 } }])
  expect(refused).toHaveLength(1)
  expect(isAppError((refused[0] as PromiseRejectedResult).reason, 'conflict')).toBe(true)

  const request = await getRequest({ db, actor: ana }, id)
  expect(request).toMatchObject({ status: 'cancelled', version: 1, actions: [] })
  expect(request.closedAt).toBeInstanceOf(Date)
  // Its items are cancelled with it (core/orders/item-machine.ts).
  expect(request.items.map((item) => item.status)).toEqual(['cancelled', 'cancelled'])
  expect(
    request.events.map(({ event, fromStatus, toStatus, actorKind }) => ({
      event,
      fromStatus,
      toStatus,
      actorKind,
    })),
  ).toEqual([
    { event: 'submit', fromStatus: null, toStatus: 'submitted', actorKind: 'customer' },
    { event: 'cancel', fromStatus: 'submitted', toStatus: 'cancelled', actorKind: 'customer' },
  ])
  // Staff stop working on it: told once, in their list and by e-mail (ADR 036).
  const staffTold = async (requestId: string) =>
    (
      await db
        .select({ userId: notifications.userId, type: notifications.type, params: notifications.params })
        .from(notifications)
        .where(
          and(
            eq(notifications.requestId, requestId),
            eq(notifications.audience, 'staff'),
            eq(notifications.type, 'request_cancelled'),
          ),
        )
        .orderBy(notifications.userId)
    ).map((row) => [row.userId, row.params.number])
  expect(await staffTold(id)).toEqual([
    [admin.id, request.number],
    [moderator.id, request.number],
  ])
  // Staff cancelling it themselves tell no one of it.
  const byStaff = await submitRequest(orders.as(ana), TWO_LINKS, { locale: 'en' })
  await cancelRequest(orders.as(admin), { id: byStaff.id, version: 0, reason: 'Asked by phone' })
  expect(await staffTold(byStaff.id)).toEqual([])
  // With the new version: not cancellable any more.
  expect(await refusal(cancelRequest(orders.as(ana), { id, version: 1 }))).toMatchObject({
    code: 'conflict',
    reason: 'requestChanged',
  })
  // A request that is paid cannot be cancelled.
  const paid = await submitRequest(orders.as(ana), TWO_LINKS, { locale: 'en' })
  await db.update(purchaseRequests).set({ status: 'paid' }).where(eq(purchaseRequests.id, paid.id))
  expect(await refusal(cancelRequest(orders.as(ana), { id: paid.id, version: 0 }))).toMatchObject({
    code: 'conflict',
    reason: 'requestNotCancellable',
  })
})

test('who cancelled and why: the customer may say why, staff must; the customer is told either way, an open quote voided', async () => {
  const { db, pool, orders } = await setup()
  // What the customer was told (staff are told of a customer's cancellation in their own list).
  const told = async (type: string) =>
    db
      .select()
      .from(notifications)
      .where(and(eq(notifications.type, type), eq(notifications.audience, 'customer')))
  // The customer, with a reason (optional): told it was them, with their words.
  const own = await submitRequest(orders.as(ana), TWO_LINKS, { locale: 'en' })
  await cancelRequest(orders.as(ana), { id: own.id, version: 0, reason: 'Found it cheaper locally' })
  expect(await told('request_cancelled')).toEqual([
    expect.objectContaining({
      userId: ana.id,
      params: { number: own.number, reason: 'Found it cheaper locally' },
      link: `/user-dashboard/requests/${own.id}`,
    }),
  ])
  expect((await getRequest(orders.as(ana), own.id)).events.at(-1)).toMatchObject({
    event: 'cancel',
    actorKind: 'customer',
    note: 'Found it cheaper locally',
  })
  // Without one: told all the same, with no reason.
  const plain = await submitRequest(orders.as(ana), TWO_LINKS, { locale: 'en' })
  await cancelRequest(orders.as(ana), { id: plain.id, version: 0 })
  expect((await told('request_cancelled')).at(-1)?.params).toEqual({ number: plain.number })
  // Staff read the customer's reason in their own list, and nothing when none was given.
  const staffParams = async (requestId: string) =>
    (
      await db
        .select({ params: notifications.params })
        .from(notifications)
        .where(
          and(
            eq(notifications.requestId, requestId),
            eq(notifications.audience, 'staff'),
            eq(notifications.type, 'request_cancelled'),
          ),
        )
    ).map((row) => row.params)
  expect(await staffParams(own.id)).toEqual([
    { number: own.number, reason: 'Found it cheaper locally' },
    { number: own.number, reason: 'Found it cheaper locally' },
  ])
  expect(await staffParams(plain.id)).toEqual([{ number: plain.number }, { number: plain.number }])

  // Staff: a quoted request; no reason, nothing happens; with one, the quote is voided and the
  // customer told that our team cancelled it, and why.
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const before = (await db.select().from(orderEvents)).length
  expect(
    await refusal(cancelRequest(orders.as(moderator), { id: quoted.requestId, version: 0 })),
  ).toMatchObject({
    code: 'invalid',
    fields: { reason: ['reasonRequired'] },
  })
  expect(
    await refusal(
      cancelRequest(orders.as(moderator), { id: quoted.requestId, version: 0, reason: 'x'.repeat(1001) }),
    ),
  ).toMatchObject({ code: 'invalid', fields: { reason: ['reasonTooLong'] } })
  expect((await db.select().from(orderEvents)).length).toBe(before)
  await cancelRequest(orders.as(moderator), {
    id: quoted.requestId,
    version: 0,
    reason: 'The shop no longer sells this model',
  })
  expect(await told('request_cancelled_by_staff')).toEqual([
    expect.objectContaining({
      userId: ana.id,
      params: {
        number: quoted.requestNumber,
        reason: 'The shop no longer sells this model',
        invoice: quoted.invoiceNumber,
      },
    }),
  ])
  const [voided] = await db.select().from(invoices).where(eq(invoices.id, quoted.invoiceId))
  expect(voided?.status).toBe('void')
})

test('history and queue: newest first, 20 a page without gaps or repeats, filtered and searched', async () => {
  const { db, orders } = await setup()
  const ids: string[] = []
  for (let index = 0; index < 25; index++) {
    const { id } = await submitRequest(
      orders.as(index % 5 === 0 ? bruno : ana),
      { items: [{ url: `https://jp.mercari.com/item/m${index}`, quantity: 1 }] },
      { locale: 'en' },
    )
    ids.push(id)
  }
  // Same instant for several requests: the id breaks the tie.
  await db.update(purchaseRequests).set({ submittedAt: sql`'2026-11-01T00:00:00Z'` })

  const anasIds = ids.filter((_, index) => index % 5 !== 0)
  const first = await listMyRequests({ db, actor: ana }, {})
  expect(first.rows).toHaveLength(REQUESTS_PAGE_SIZE)
  expect(first.rows[0]?.items).toEqual([expect.objectContaining({ shopHost: 'jp.mercari.com', quantity: 1 })])
  expect(first.nextCursor).toBeNull()
  expect(first.rows.map((row) => row.id).sort()).toEqual([...anasIds].sort())

  const all: string[] = []
  let cursor: string | null = null
  do {
    const page: Awaited<ReturnType<typeof listRequestQueue>> = await listRequestQueue(
      { db, actor: moderator },
      { cursor },
    )
    all.push(...page.rows.map((row) => row.id))
    cursor = page.nextCursor
  } while (cursor)
  expect(all).toHaveLength(25)
  expect(new Set(all).size).toBe(25)
  // The same through a search's pages (its matches sorted here, ties broken by the id too).
  const searched = await listRequestQueue({ db, actor: moderator }, { q: 'mercari.com' })
  const rest = await listRequestQueue(
    { db, actor: moderator },
    { q: 'mercari.com', cursor: searched.nextCursor },
  )
  expect(rest.nextCursor).toBeNull()
  expect([...searched.rows, ...rest.rows].map((row) => row.id)).toEqual(all)

  await cancelRequest(orders.as(ana), { id: anasIds[0] as string, version: 0 })
  const cancelled = await listRequestQueue({ db, actor: admin }, { status: 'cancelled' })
  expect(cancelled.rows.map((row) => row.id)).toEqual([anasIds[0]])
  expect(cancelled.counts).toMatchObject({ submitted: 24, cancelled: 1, quoted: 0 })

  const byName = await listRequestQueue({ db, actor: admin }, { q: 'bruno' })
  expect(byName.rows).toHaveLength(5)
  expect(byName.counts?.submitted).toBe(5)
  // A status without matches: an empty page, and the search's other statuses still counted.
  const noneCancelled = await listRequestQueue({ db, actor: admin }, { q: 'bruno', status: 'cancelled' })
  expect(noneCancelled.rows).toEqual([])
  expect(noneCancelled.counts).toMatchObject({ submitted: 5, cancelled: 0 })
  const [numbered] = await db
    .select({ number: purchaseRequests.number })
    .from(purchaseRequests)
    .where(eq(purchaseRequests.id, ids[7] as string))
  const byNumber = await listRequestQueue({ db, actor: admin }, { q: numbered?.number.toLowerCase() })
  expect(byNumber.rows.map((row) => row.id)).toEqual([ids[7]])
  expect(Object.values(byNumber.counts ?? {}).reduce((sum, count) => sum + count, 0)).toBe(1)
  expect((await listRequestQueue({ db, actor: admin }, { q: 'ANA@example' })).rows).toHaveLength(20)
  const byUrl = await listRequestQueue({ db, actor: admin }, { q: 'ITEM/m13' })
  expect(byUrl.rows.map((row) => row.id)).toEqual([ids[13]])
  expect(byUrl.rows[0]).toMatchObject({
    customerName: 'Ana Pérez',
    itemCount: 1,
    shopHosts: ['jp.mercari.com'],
  })
  expect((await listRequestQueue({ db, actor: admin }, { q: '100%_' })).rows).toEqual([])

  expect(await refusal(listRequestQueue({ db, actor: ana }, {}))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(listMyRequests({ db, actor: ana }, { cursor: 'garbage' }))).toMatchObject({
    code: 'invalid',
  })
})

test('queue: a broad search says "N or more" instead of counting on, and still pages newest first', async () => {
  const { db, pool } = await setup()
  // More requests with a Mercari link than a search counts, written straight in SQL (Ana's, a
  // minute apart, every tenth cancelled), and five of Bruno's with an Amazon link.
  const broad = QUEUE_SEARCH_COUNT_LIMIT + 50
  await pool.query(
    `WITH made AS (
       INSERT INTO purchase_requests (user_id, status, locale, submitted_at)
       SELECT $1, CASE WHEN g % 10 = 0 THEN 'cancelled' ELSE 'submitted' END, 'es',
              timestamptz '2026-01-01' + g * interval '1 minute'
       FROM generate_series(1, $2::int) g
       RETURNING id, number)
     INSERT INTO request_items (request_id, position, url, shop_host)
     SELECT id, 1, 'https://jp.mercari.com/item/m' || substr(number, 4), 'jp.mercari.com' FROM made`,
    [ana.id, broad],
  )
  await pool.query(
    `WITH made AS (
       INSERT INTO purchase_requests (user_id, locale, submitted_at)
       SELECT $1, 'en', timestamptz '2025-06-01' + g * interval '1 day' FROM generate_series(1, 5) g
       RETURNING id)
     INSERT INTO request_items (request_id, position, url, shop_host)
     SELECT id, 1, 'https://www.amazon.co.jp/dp/B0BROAD', 'amazon.co.jp' FROM made`,
    [bruno.id],
  )

  const first = await listRequestQueue({ db, actor: admin }, { q: 'MERCARI' })
  expect(first.counts).toBeNull()
  expect(first.matchesAtLeast).toBe(QUEUE_SEARCH_COUNT_LIMIT + 1)
  expect(first.rows).toHaveLength(REQUESTS_PAGE_SIZE)
  expect(first.rows[0]?.submittedAt.toISOString()).toBe(
    new Date(Date.parse('2026-01-01T00:00:00Z') + broad * 60_000).toISOString(),
  )
  const second = await listRequestQueue({ db, actor: admin }, { q: 'MERCARI', cursor: first.nextCursor })
  const both = [...first.rows, ...second.rows]
  expect(new Set(both.map((row) => row.id)).size).toBe(2 * REQUESTS_PAGE_SIZE)
  expect(both.map((row) => row.submittedAt.getTime())).toEqual(
    both.map((row) => row.submittedAt.getTime()).sort((a, b) => b - a),
  )
  const cancelled = await listRequestQueue({ db, actor: admin }, { q: 'mercari', status: 'cancelled' })
  expect(cancelled.counts).toBeNull()
  expect(cancelled.rows.map((row) => row.status)).toEqual(Array(REQUESTS_PAGE_SIZE).fill('cancelled'))

  // A narrow search beside it is counted exactly, by status.
  const amazon = await listRequestQueue({ db, actor: admin }, { q: 'amazon' })
  expect(amazon.counts).toMatchObject({ submitted: 5, cancelled: 0 })
  expect(amazon.matchesAtLeast).toBeNull()
  expect(amazon.rows.map((row) => row.customerName)).toEqual(Array(5).fill('Bruno Díaz'))
  // Without a search, every request is counted.
  expect((await listRequestQueue({ db, actor: admin }, {})).counts).toMatchObject({
    submitted: broad - Math.floor(broad / 10) + 5,
    cancelled: Math.floor(broad / 10),
  })
})

test('the same form sent ten times at once (one token) is one request, one set of notifications', async () => {
  const { db, pool, orders, counts } = await setup()
  const submissionKey = crypto.randomUUID()
  const input = { ...TWO_LINKS, submissionKey }
  const results = await Promise.all(
    Array.from({ length: 10 }, () => submitRequest(orders.as(ana), input, { locale: 'es' })),
  )
  expect(new Set(results.map((result) => result.id)).size).toBe(1)
  expect(await counts()).toMatchObject({ requests: 1, items: input.items.length })
  expect(await countJobs(pool, 'notification.staff-email')).toBe(1)
  const told = await db.select().from(notifications).where(eq(notifications.userId, ana.id))
  expect(told.filter((row) => row.type === 'request_received')).toHaveLength(1)
  // Sent again later (a resend of the same page): the same request.
  expect((await submitRequest(orders.as(ana), input, { locale: 'es' })).id).toBe(results[0]?.id)
  // Another customer with the same token is another request; a new token, another request.
  await submitRequest(orders.as(bruno), input, { locale: 'es' })
  await submitRequest(orders.as(ana), { ...input, submissionKey: crypto.randomUUID() }, { locale: 'es' })
  expect((await counts()).requests).toBe(3)
})
