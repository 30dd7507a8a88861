import { expect, test } from 'vitest'
import { postMessage } from '#core/conversations/conversation-service.ts'
import { createAddress } from '#core/customers/profile-service.ts'
import { storageCountdown } from '#core/warehouse/storage.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { admin, ana, bruno, moderator, paidShipment } from '#tests/support/shipment-fixtures.ts'
import { bookedItems, paidRequest } from '#tests/support/warehouse-fixtures.ts'
import { getCustomerPicture } from './customer-picture.ts'

// The customer's whole picture for staff (issue 34), from real rows: Ana's two paid requests
// shipped together (packed, the receipt paid), a third paid request with its item at the office,
// a refund sent and one still owed, two addresses; Bruno's request and address never show.

const FREE_DAYS = 30

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const shipped = await paidShipment(db, pool, orders)
  const third = await bookedItems(orders, pool, { userId: ana.id, staff: admin, reference: 'BANK third' })
  const home = await createAddress(orders.as(ana), {
    fullName: 'Ana Pérez',
    street: 'Calle Roma 45',
    city: 'Ciudad de México',
    region: 'CDMX',
    postalCode: '06700',
    country: 'MX',
    phone: '+52 55 1234 5678',
    makeDefault: true,
  })
  // A refund owed and sent on the third request's payment; another owed, not sent yet, on the first's.
  await pool.query(
    `INSERT INTO refunds (payment_id, amount_jpy, status, reason, created_at) VALUES
       ($1, 300, 'due', 'overpayment', now() - interval '2 minutes'),
       ($1, 300, 'done', 'overpayment', now() - interval '1 minute'),
       ($2, 200, 'due', 'item 1 unavailable', now())`,
    [third.paymentId, shipped.first.paymentId],
  )
  // Bruno's money, request, item and address: never Ana's.
  const brunos = await paidRequest(orders, pool, { userId: bruno.id, staff: admin, reference: 'BANK bruno' })
  await createAddress(orders.as(bruno), {
    fullName: 'Bruno Díaz',
    street: 'Av. Providencia 1',
    city: 'Santiago',
    region: 'RM',
    postalCode: '7500000',
    country: 'CL',
    phone: '+56 2 2345 6789',
    makeDefault: true,
  })
  // Bruno asks about his request twice, and staff answer once: one conversation, answered.
  const about = { kind: 'request', id: brunos.requestId } as const
  await postMessage(orders.as(bruno), about, { body: '¿Ya lo compraron?' })
  await postMessage(orders.as(bruno), about, { body: '¿Y cuándo llega?' })
  await postMessage(orders.as(moderator), about, { body: 'Sí, llega el lunes.' })
  const read = (actor: Parameters<typeof orders.as>[0], id = ana.id) =>
    getCustomerPicture(orders.as(actor), id)
  return { pool, shipped, third, home, brunos, read }
}

test('every section and the lifetime totals of one customer are exactly what the database holds, and only theirs', async () => {
  const { pool, shipped, third, home, brunos, read } = await setup()
  const picture = await read(admin)
  const { first, second, packed, shipment, address } = shipped

  // Requests: newest first, with their status as stored.
  const statuses = new Map(
    (await pool.query<{ id: string; status: string }>('SELECT id, status FROM purchase_requests')).rows.map(
      (row) => [row.id, row.status],
    ),
  )
  expect(picture.requests.total).toBe(3)
  expect(picture.requests.rows.map((row) => [row.number, row.status])).toEqual([
    [third.requestNumber, statuses.get(third.requestId)],
    [second.requestNumber, statuses.get(second.requestId)],
    [first.requestNumber, statuses.get(first.requestId)],
  ])
  expect(picture.requests.rows.map((row) => row.id)).toEqual([
    third.requestId,
    second.requestId,
    first.requestId,
  ])

  // The shipment: paid (not sent yet), economy.
  expect(picture.shipments).toMatchObject({
    total: 1,
    rows: [{ id: shipment.id, number: shipment.number, status: 'paid', method: 'economic' }],
  })

  // At the office now: the two items waiting in the paid shipment and the third request's item.
  expect(picture.storedItems.total).toBe(3)
  expect(picture.storedItems.rows.map((row) => [row.id, row.requestNumber]).sort()).toEqual(
    [
      [first.itemIds[0], first.requestNumber],
      [second.itemIds[0], second.requestNumber],
      [third.itemIds[0], third.requestNumber],
    ].sort(),
  )
  for (const item of picture.storedItems.rows) {
    // Received today: the whole free period ahead (paused meanwhile for the two in the shipment).
    const storage = storageCountdown(item.receivedAt, new Date(), FREE_DAYS, item)
    expect(storage).toMatchObject({ daysLeft: FREE_DAYS, expired: false })
    // Paused while waiting in the shipment; the third item's clock runs.
    expect(item.reservedAt !== null).toBe(item.id !== third.itemIds[0])
    expect(item.pausedDays).toBe(0)
    expect(item.title).toBe('Item 1')
  }

  // The address book: the new default first.
  expect(picture.addresses.total).toBe(2)
  expect(picture.addresses.rows.map((row) => [row.id, row.city, row.isDefault])).toEqual([
    [home.id, 'Ciudad de México', true],
    [address.id, 'Lima', false],
  ])

  // Payments (four bank transfers) and refunds (three rows), newest first, with invoice numbers.
  expect(first.totalJpy).toBe(3850)
  expect(second.totalJpy).toBe(6050)
  expect(third.totalJpy).toBe(1650)
  expect(packed.totalJpy).toBe(5000)
  const receipt = (await pool.query('SELECT number FROM invoices WHERE id = $1', [packed.invoiceId])).rows[0]
    ?.number as string
  expect(picture.money.total).toBe(7)
  expect(
    picture.money.rows
      .map((row) => [row.kind, row.invoiceNumber, row.amountJpy, row.provider, row.status])
      .sort((a, b) => String(a).localeCompare(String(b))),
  ).toEqual(
    [
      ['payment', first.invoiceNumber, 3850, 'manual', 'succeeded'],
      ['payment', second.invoiceNumber, 6050, 'manual', 'succeeded'],
      ['payment', third.invoiceNumber, 1650, 'manual', 'succeeded'],
      ['payment', receipt, 5000, 'manual', 'succeeded'],
      ['refund', third.invoiceNumber, 300, 'manual', 'due'],
      ['refund', third.invoiceNumber, 300, 'manual', 'done'],
      ['refund', first.invoiceNumber, 200, 'manual', 'due'],
    ].sort((a, b) => String(a).localeCompare(String(b))),
  )
  const times = picture.money.rows.map((row) => row.at.getTime())
  expect(times).toEqual([...times].sort((a, b) => b - a))
  expect(picture.money.rows[0]).toMatchObject({ kind: 'refund', amountJpy: 200, status: 'due' })

  // Lifetime: paid 3,850 + 6,050 + 5,000 + 1,650; sent back 300 (the 200 is still owed).
  expect(picture.totals).toEqual({
    paidJpy: 16_550,
    refundedJpy: 300,
    requests: 3,
    shipments: 1,
    storedItems: 3,
    balanceJpy: 0,
  })

  // Bruno's rows are nowhere in Ana's picture.
  const text = JSON.stringify(picture)
  expect(text).not.toContain(brunos.requestNumber)
  expect(text).not.toContain(brunos.invoiceNumber)
  expect(text).not.toContain('Santiago')
})

test('another customer reads as a picture of their own; a customer without anything has empty lists and zero totals', async () => {
  const { brunos, read } = await setup()
  const picture = await read(moderator, bruno.id)
  expect(picture.requests.rows.map((row) => row.number)).toEqual([brunos.requestNumber])
  expect(picture.money.rows.map((row) => [row.kind, row.invoiceNumber, row.amountJpy])).toEqual([
    ['payment', brunos.invoiceNumber, brunos.totalJpy],
  ])
  expect(picture.totals).toEqual({
    paidJpy: brunos.totalJpy,
    refundedJpy: 0,
    requests: 1,
    shipments: 0,
    storedItems: 0,
    balanceJpy: 0,
  })
  expect(picture.conversations).toMatchObject({
    total: 1,
    rows: [
      {
        kind: 'request',
        orderId: brunos.requestId,
        number: brunos.requestNumber,
        messages: 3,
        waitingSince: null,
      },
    ],
  })
  // Ana's picture has none of Bruno's conversation.
  expect((await read(admin)).conversations).toEqual({ rows: [], total: 0 })
  const empty = await read(admin, moderator.id)
  expect(empty).toEqual({
    userId: moderator.id,
    requests: { rows: [], total: 0 },
    shipments: { rows: [], total: 0 },
    storedItems: { rows: [], total: 0 },
    addresses: { rows: [], total: 0 },
    money: { rows: [], total: 0 },
    conversations: { rows: [], total: 0 },
    totals: { paidJpy: 0, refundedJpy: 0, requests: 0, shipments: 0, storedItems: 0, balanceJpy: 0 },
  })
})

test('moderators and admins read; customers (even about themselves) and anonymous callers are refused as on the user page; unknown users are not found', async () => {
  const { read } = await setup()
  expect((await read(moderator)).totals.requests).toBe(3)
  expect((await read(admin)).totals.requests).toBe(3)
  expect(await refusal(read(null))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(read(ana))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(read(bruno))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(read(admin, 'user-nobody'))).toMatchObject({
    code: 'not_found',
    reason: 'userNotFound',
  })
  expect(await refusal(read(admin, "x' or 1=1"))).toMatchObject({ code: 'not_found', reason: 'userNotFound' })
})

test('each list shows the newest 50 and counts them all; the totals count everything', async () => {
  const { pool, read } = await setup()
  await pool.query(
    `INSERT INTO purchase_requests (user_id, locale, submitted_at)
     SELECT $1, 'es', now() + n * interval '1 second' FROM generate_series(1, 52) AS n`,
    [ana.id],
  )
  const picture = await read(admin)
  expect(picture.requests.total).toBe(55)
  expect(picture.requests.rows).toHaveLength(50)
  expect(picture.totals.requests).toBe(55)
  const times = picture.requests.rows.map((row) => row.submittedAt.getTime())
  expect(times).toEqual([...times].sort((a, b) => b - a))
  // The newest: the last one inserted, a second ahead of the rest.
  expect(times[0]).toBe(Math.max(...times))
})
