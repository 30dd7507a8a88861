import { PgDialect } from 'drizzle-orm/pg-core'
import { expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import { listShipmentQueue } from '#core/shipping/shipment-service.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { refusal } from '#tests/support/refusal.ts'
import { insertPeople } from '#tests/support/warehouse-fixtures.ts'
import { listRequestQueue } from './request-service.ts'
import { staffWorkToday, WORK_KINDS, workCountsQuery } from './staff-work.ts'

// The staff's work for today (docs/decisions/036): counts by role, their links' lists, and the
// indexes that keep the counts cheap.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

async function setup() {
  const { db, pool } = await createTestDatabase()
  await insertPeople(db, [
    { ...ana, name: 'Ana Pérez' },
    { ...bruno, name: 'Bruno Díaz' },
    { ...admin, name: 'Admin' },
    { ...moderator, name: 'Mod' },
  ])
  const as = (actor: Actor | null) => ({ db, actor })
  const counts = async (actor: Actor) =>
    Object.fromEntries((await staffWorkToday(as(actor))).map((entry) => [entry.kind, entry.count]))
  return { db, pool, as, counts }
}

type Pool = Awaited<ReturnType<typeof createTestDatabase>>['pool']

/** A quoted request (insertQuotedRequest) moved on to `status`, its items in `itemStatuses`. */
async function requestWithItems(pool: Pool, userId: string, status: string, itemStatuses: string[]) {
  const quoted = await insertQuotedRequest(pool, {
    userId,
    items: itemStatuses.map((_, index) => ({ unitPriceJpy: 1000 + index })),
  })
  await pool.query('UPDATE purchase_requests SET status = $2 WHERE id = $1', [quoted.requestId, status])
  for (const [index, itemStatus] of itemStatuses.entries()) {
    await pool.query('UPDATE request_items SET status = $2 WHERE id = $1', [
      quoted.itemIds[index],
      itemStatus,
    ])
  }
  return quoted
}

async function insertShipment(pool: Pool, userId: string, status: string, claim?: string) {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO shipments (user_id, status, method, address, country, region, route, estimated_weight_g,
       estimated_price_jpy, locale)
     VALUES ($1, $2, 'economic', '{"fullName":"A","street":"S","city":"C","region":"","postalCode":"","country":"PE","phone":"1"}',
       'PE', 'central_south_america', 'direct', 500, 2000, 'es') RETURNING id`,
    [userId, status],
  )
  const id = rows[0]?.id as string
  if (claim) {
    await pool.query(
      `INSERT INTO claims (shipment_id, user_id, status, resolved_at, close_reason)
       VALUES ($1, $2, $3, CASE WHEN $3 IN ('lost', 'closed') THEN now() END, CASE WHEN $3 = 'closed' THEN 'found' END)`,
      [id, userId, claim],
    )
  }
  return id
}

test('nothing waiting: every kind at 0; a moderator sees only what they may act on; customers and anonymous refused', async () => {
  const { as } = await setup()
  const adminWork = await staffWorkToday(as(admin))
  expect(adminWork.map((entry) => entry.kind)).toEqual([...WORK_KINDS])
  expect(adminWork.every((entry) => entry.count === 0)).toBe(true)
  expect(adminWork.map((entry) => entry.link)).toEqual([
    '/admin-dashboard/requests?status=submitted',
    '/admin-dashboard/payments',
    '/admin-dashboard/requests?work=to_buy',
    '/admin-dashboard/requests?work=to_receive',
    '/admin-dashboard/shipments?status=requested',
    '/admin-dashboard/shipments?status=paid',
    '/admin-dashboard/shipments?claim=open',
    '/admin-dashboard/messages',
    '/admin-dashboard/conversations',
  ])
  // No money, no contact inbox (core/shared/staff-policy.ts).
  expect((await staffWorkToday(as(moderator))).map((entry) => entry.kind)).toEqual([
    'quote',
    'buy',
    'receive',
    'pack',
    'send',
    'claims',
    'conversations',
  ])
  expect(await refusal(staffWorkToday(as(ana)))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(staffWorkToday(as(null)))).toMatchObject({ code: 'unauthorized' })
})

test('each kind counts exactly what waits, and its link’s list shows exactly those', async () => {
  const { db, pool, as, counts } = await setup()
  // Two requests to quote, one quoted (the customer's turn), one cancelled.
  for (const userId of [ana.id, bruno.id]) {
    await pool.query(`INSERT INTO purchase_requests (user_id, locale) VALUES ($1, 'es')`, [userId])
  }
  await insertQuotedRequest(pool, { userId: ana.id })
  await pool.query(`INSERT INTO purchase_requests (user_id, locale, status) VALUES ($1, 'es', 'cancelled')`, [
    ana.id,
  ])
  // Items to buy: 3 in 2 requests; bought and not here: 2 in 2 requests (one request has both).
  const paid = await requestWithItems(pool, ana.id, 'paid', ['to_buy', 'to_buy'])
  const mixed = await requestWithItems(pool, bruno.id, 'in_progress', ['to_buy', 'ordered', 'received'])
  const ordered = await requestWithItems(pool, ana.id, 'in_progress', ['ordered'])
  await requestWithItems(pool, ana.id, 'completed', ['shipped'])
  // Payments to confirm: one held, one bank transfer the customer reported (and one already confirmed).
  const held = await insertQuotedRequest(pool, { userId: ana.id })
  await pool.query(
    `INSERT INTO payments (invoice_id, provider, provider_ref, status, requested_jpy, amount, currency)
     VALUES ($1, 'paypal', 'ORDER-1', 'held', $2, 50, 'USD')`,
    [held.invoiceId, held.totalJpy],
  )
  const reported = await insertQuotedRequest(pool, { userId: bruno.id })
  await pool.query(`INSERT INTO transfer_notices (invoice_id, user_id) VALUES ($1, $2)`, [
    reported.invoiceId,
    bruno.id,
  ])
  await pool.query(
    `INSERT INTO transfer_notices (invoice_id, user_id, status, resolved_at) VALUES ($1, $2, 'confirmed', now())`,
    [held.invoiceId, ana.id],
  )
  // Boxes: two to pack, one to send; claims: one open, one investigating, one closed.
  await insertShipment(pool, ana.id, 'requested')
  await insertShipment(pool, bruno.id, 'requested')
  await insertShipment(pool, ana.id, 'paid')
  await insertShipment(pool, ana.id, 'packed')
  const lost = await insertShipment(pool, ana.id, 'shipped', 'open')
  const looking = await insertShipment(pool, bruno.id, 'shipped', 'investigating')
  await insertShipment(pool, ana.id, 'shipped', 'closed')
  // Messages: two open, one handled, one spam.
  await pool.query(`INSERT INTO contact_messages (name, email, subject, message, language, forward_status, handled_at, is_spam)
    VALUES ('A', 'a@example.com', 'other', 'Hola', 'es', 'not_configured', null, false),
           ('B', 'b@example.com', 'other', 'Hola', 'es', 'not_configured', null, false),
           ('C', 'c@example.com', 'other', 'Hola', 'es', 'not_configured', now(), false),
           ('D', 'd@example.com', 'other', 'Hola', 'es', 'skipped', null, true)`)
  // Conversations (docs/decisions/048): one customer waiting for an answer, one answered.
  await pool.query(`INSERT INTO conversations (request_id, customer_id, waiting_since)
    SELECT id, user_id, CASE WHEN row_number() OVER (ORDER BY id) = 1 THEN now() END
    FROM purchase_requests ORDER BY id LIMIT 2`)

  expect(await counts(admin)).toEqual({
    quote: 2,
    payments: 2,
    buy: 3,
    receive: 2,
    pack: 2,
    send: 1,
    claims: 2,
    messages: 2,
    conversations: 1,
  })
  const work = await staffWorkToday(as(admin))
  expect(work.find((entry) => entry.kind === 'payments')?.detail).toEqual({ held: 1, reported: 1 })
  expect(work.find((entry) => entry.kind === 'buy')?.detail).toEqual({ requests: 2 })
  expect(work.find((entry) => entry.kind === 'receive')?.detail).toEqual({ requests: 2 })
  expect(await counts(moderator)).toEqual({
    quote: 2,
    buy: 3,
    receive: 2,
    pack: 2,
    send: 1,
    claims: 2,
    conversations: 1,
  })

  // The lists behind the links.
  const queue = (filters: Parameters<typeof listRequestQueue>[1]) => listRequestQueue(as(moderator), filters)
  const toBuy = await queue({ work: 'to_buy' })
  expect(toBuy.rows.map((row) => row.id).sort()).toEqual([paid.requestId, mixed.requestId].sort())
  expect(toBuy.workCount).toBe(2)
  const toReceive = await queue({ work: 'to_receive' })
  expect(toReceive.rows.map((row) => row.id).sort()).toEqual([mixed.requestId, ordered.requestId].sort())
  expect(toReceive.workCount).toBe(2)
  // With a status, a search (within the count limit) and both.
  expect((await queue({ work: 'to_buy', status: 'paid' })).rows.map((row) => row.id)).toEqual([
    paid.requestId,
  ])
  expect((await queue({ work: 'to_buy', q: 'Bruno' })).rows.map((row) => row.id)).toEqual([mixed.requestId])
  expect((await queue({ work: 'to_receive', q: 'Ana P' })).rows.map((row) => row.id)).toEqual([
    ordered.requestId,
  ])
  expect((await queue({})).workCount).toBeNull()
  expect((await queue({ status: 'submitted' })).rows).toHaveLength(2)

  const claimed = await listShipmentQueue(as(moderator), { claim: true })
  expect(claimed.rows.map((row) => row.id).sort()).toEqual([lost, looking].sort())
  expect((await listShipmentQueue(as(moderator), { status: 'requested' })).rows).toHaveLength(2)
  expect((await listShipmentQueue(as(moderator), { status: 'paid' })).rows).toHaveLength(1)
  void db
})

test('with a page of work: the filtered queue pages newest first without gaps or repeats', async () => {
  const { pool, as } = await setup()
  const ids: string[] = []
  for (let index = 0; index < 23; index++) {
    const request = await requestWithItems(pool, index % 2 ? ana.id : bruno.id, 'paid', ['to_buy'])
    await pool.query(
      `UPDATE purchase_requests SET submitted_at = now() - $2::int * interval '1 minute' WHERE id = $1`,
      [request.requestId, index],
    )
    ids.push(request.requestId)
  }
  // Requests without work between them.
  for (let index = 0; index < 5; index++) await requestWithItems(pool, ana.id, 'completed', ['shipped'])
  const first = await listRequestQueue(as(admin), { work: 'to_buy' })
  expect(first.rows.map((row) => row.id)).toEqual(ids.slice(0, 20))
  const second = await listRequestQueue(as(admin), { work: 'to_buy', cursor: first.nextCursor })
  expect(second.rows.map((row) => row.id)).toEqual(ids.slice(20))
  expect(second.nextCursor).toBeNull()
})

test('every count reads an index: with sequential scans off, the plan has none', async () => {
  const { pool } = await setup()
  const client = await pool.connect()
  try {
    await client.query('SET enable_seqscan = off')
    // Written as db/client.ts's drizzle writes it (snake_case columns).
    const query = new PgDialect({ casing: 'snake_case' }).sqlToQuery(workCountsQuery(WORK_KINDS))
    const plan = await client.query(`EXPLAIN ${query.sql}`, query.params)
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n')
    expect(text).not.toContain('Seq Scan')
    // The partial indexes of waiting rows that this page brought (migration 0029), and the others'.
    for (const index of [
      'payments_held_idx',
      'transfer_notices_pending_idx',
      'request_items_work_idx',
      'shipments_queue_idx',
      'claims_open_idx',
      'contact_messages_open_idx',
    ]) {
      expect(text, index).toContain(index)
    }
  } finally {
    client.release()
  }
})
