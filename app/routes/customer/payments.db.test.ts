import { expect, test } from 'vitest'
import { formatMoney } from '#core/money/money.ts'
import { markRefundDone, recordManualPayment } from '#core/payments/staff-payments.ts'
import { markItemUnavailable } from '#core/warehouse/unavailable-items.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { callRoute, createTestServices, pageRequest, signedInCaller } from '#tests/support/route-context.ts'
import { loader as invoiceLoader } from './invoice.tsx'
import { middleware } from './layout.tsx'
import { loader as moneyLoader } from './payments.tsx'
import { loader as requestLoader } from './request.tsx'

// The customer's payments and refunds (docs/decisions/034): their own only, whoever asks; the
// refunds of a request on its page and on its invoice, on their way and then sent.

const yen = (amount: number) => formatMoney(amount, 'JPY', 'en')

async function setup() {
  const { db, pool } = await createTestDatabase()
  const services = await createTestServices(db, pool)
  const orders = await createOrderTestDeps(db, pool)
  const get = (path: string, handler: (args: never) => unknown, cookie?: string, params = {}) =>
    callRoute(services, middleware, pageRequest(path, { cookie }), (args) => handler(args as never), {
      params,
      context: { language: 'en' },
    })
  return { db, pool, orders, get }
}

type MoneyData = {
  totals: { paid: string; refunded: string; pending: string | null }
  entries: { kind: string; amountLabel: string; owner: { number: string }; sent?: boolean; reason?: string }[]
}

test('anonymous gets the login guard; each signed-in user sees only their own money; staff see theirs (none)', async () => {
  const { pool, orders, get } = await setup()
  expect(await get('/user-dashboard/payments', moneyLoader)).toMatchObject({
    status: 401,
    data: { guard: 'login', redirectTo: '/user-dashboard/payments' },
  })
  const ana = await signedInCaller(pool, { email: 'ana@example.com' })
  const bruno = await signedInCaller(pool, { email: 'bruno@example.com' })
  const moderator = await signedInCaller(pool, { email: 'mod@example.com', role: 'moderator' })
  const admin = await signedInCaller(pool, { email: 'admin@example.com', role: 'admin' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  await recordManualPayment(orders.as({ id: admin.id, role: 'admin' }), {
    invoiceId: quoted.invoiceId,
    version: 0,
    amountJpy: String(quoted.totalJpy),
    reference: 'BANK-ANA-1',
  })
  const mine = await get('/user-dashboard/payments', moneyLoader, ana.cookie)
  expect(mine.status).toBe(200)
  const data = mine.data as MoneyData
  expect(data.entries).toMatchObject([
    { kind: 'payment', amountLabel: yen(7400), owner: { number: quoted.requestNumber } },
  ])
  expect(data.totals).toEqual({ paid: yen(7400), refunded: yen(0), pending: null })
  for (const other of [bruno, moderator, admin]) {
    const page = await get('/user-dashboard/payments', moneyLoader, other.cookie)
    expect(page.status).toBe(200)
    expect((page.data as MoneyData).entries).toEqual([])
  }
})

test('an item the shop could not supply: its refund on the request page, the invoice and the money page, on its way and then sent', async () => {
  const { pool, orders, get } = await setup()
  const ana = await signedInCaller(pool, { email: 'ana@example.com' })
  const admin = await signedInCaller(pool, { email: 'admin@example.com', role: 'admin' })
  const staff = orders.as({ id: admin.id, role: 'admin' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const { paymentId } = await recordManualPayment(staff, {
    invoiceId: quoted.invoiceId,
    version: 0,
    amountJpy: String(quoted.totalJpy),
    reference: 'BANK-ANA-2',
  })
  const version = async (table: 'purchase_requests' | 'payments', id: string) =>
    Number((await pool.query(`SELECT version FROM ${table} WHERE id = $1`, [id])).rows[0].version)
  await markItemUnavailable(staff, {
    id: quoted.requestId,
    version: await version('purchase_requests', quoted.requestId),
    itemId: quoted.itemIds[0],
    reason: 'Sold out',
  })
  const refundsOn = async () => {
    const request = await get(`/user-dashboard/requests/${quoted.requestId}`, requestLoader, ana.cookie, {
      id: quoted.requestId,
    })
    const invoice = await get(`/user-dashboard/invoices/${quoted.invoiceId}`, invoiceLoader, ana.cookie, {
      id: quoted.invoiceId,
    })
    const money = await get('/user-dashboard/payments', moneyLoader, ana.cookie)
    return {
      request: (request.data as { refunds: unknown[] }).refunds,
      invoice: (invoice.data as { refunds: unknown[] }).refunds,
      money: (money.data as MoneyData).entries.filter((entry) => entry.kind === 'refund'),
      status: (request.data as { request: { status: string } }).request.status,
    }
  }
  const owed = await refundsOn()
  // The whole quote back (one item): its price, fee, shipping in Japan and tax.
  const due = { reason: 'unavailable', detail: '1', amountLabel: yen(7400), sentLabel: null }
  expect(owed.request).toMatchObject([due])
  expect(owed.invoice).toMatchObject([due])
  expect(owed.money).toMatchObject([{ reason: 'unavailable', sent: false, amountLabel: yen(7400) }])
  expect(owed.status).toBe('paid')

  await markRefundDone(staff, {
    paymentId,
    version: await version('payments', paymentId),
    reference: 'BANK-R-2',
  })
  const sent = await refundsOn()
  expect(sent.request).toMatchObject([{ ...due, sentLabel: expect.any(String) }])
  expect(sent.invoice).toMatchObject([{ ...due, sentLabel: expect.any(String) }])
  expect(sent.money).toMatchObject([{ sent: true }])
  // Nothing left to do on it: complete.
  expect(sent.status).toBe('completed')
  // Another customer: the pages are not found, as for any other request.
  const bruno = await signedInCaller(pool, { email: 'bruno@example.com' })
  expect(
    (
      await get(`/user-dashboard/invoices/${quoted.invoiceId}`, invoiceLoader, bruno.cookie, {
        id: quoted.invoiceId,
      })
    ).status,
  ).toBe(404)
})
