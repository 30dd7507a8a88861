import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq } from 'drizzle-orm'
import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { HTTP_STATUS, isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import type { Database } from '#db/client.ts'
import {
  invoices,
  notifications,
  payments,
  purchaseRequests,
  users,
  webhookEvents,
} from '#db/schema/index.ts'
import { createTestDatabase, onFileCleanup } from '#tests/db.ts'
import { type DLocalStandIn, startDLocalStandIn } from '#tests/support/dlocal-stand-in/server.ts'
import { insertQuotedRequest, type QuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { confirmReturn, handleWebhook, reconcilePendingPayments, startCheckout } from './payment-service.ts'
import { getPaymentPanel } from './payment-views.ts'
import { type PaymentProvider, paymentProvidersFromEnv } from './provider.ts'
import type { PaymentSystemDeps } from './settle-payment.ts'

// dLocal (docs/decisions/051) through the payment service and a webhook receiver doing what the
// app's route does, on a real database, against the local stand-in: an OXXO voucher issued and
// paid later by the stand-in's signed notification, or expiring; replays, forgeries, a payment
// after the expiry, another amount, reconciliation, and methods per country.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }

let standIn: DLocalStandIn
let db: Database
let pool: pg.Pool
let providers: PaymentProvider[]
let orders: Awaited<ReturnType<typeof createOrderTestDeps>>
let system: PaymentSystemDeps
let webhookUrl: string

beforeAll(async () => {
  ;({ db, pool } = await createTestDatabase())
  standIn = await startDLocalStandIn()
  providers = paymentProvidersFromEnv({ ...standIn.env, PAYMENT_PROVIDER_TIMEOUT_SECONDS: '1' })
  orders = await createOrderTestDeps(db, pool, { payments: providers })
  system = { db, jobs: orders.jobs, settings: orders.settings, payments: providers, appUrl: orders.appUrl }
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const provider = req.url?.split('/').at(-1) ?? ''
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
    )
    try {
      const { result } = await handleWebhook(system, provider, headers, body)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }))
    } catch (error) {
      if (!isAppError(error)) throw error
      res.writeHead(HTTP_STATUS[error.code], { 'content-type': 'application/json' }).end('{}')
    }
  })
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/webhooks/`
  onFileCleanup(() => new Promise((resolve) => server.close(() => resolve())))
  const now = new Date()
  const base = { emailVerified: true, createdAt: now, updatedAt: now }
  await db.insert(users).values([
    { ...base, id: ana.id, name: 'Ana Pérez', email: 'ana@example.com', role: 'user' },
    { ...base, id: bruno.id, name: 'Bruno Díaz', email: 'bruno@example.com', role: 'user' },
  ])
})
afterAll(() => standIn.stop())
beforeEach(() => {
  standIn.webhookUrl = webhookUrl
  standIn.overrideAmount = null
  standIn.down = false
})

const oxxo = { provider: 'dlocal', country: 'MX', method: 'oxxo' } as const

async function state(quoted: QuotedRequest) {
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, quoted.invoiceId))
  const [request] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, quoted.requestId))
  const rows = await db
    .select()
    .from(payments)
    .where(eq(payments.invoiceId, quoted.invoiceId))
    .orderBy(payments.createdAt)
  const told = await db
    .select({ type: notifications.type, params: notifications.params })
    .from(notifications)
    .where(and(eq(notifications.requestId, quoted.requestId), eq(notifications.audience, 'customer')))
    .orderBy(notifications.createdAt)
  return { invoice: invoice?.status, request: request?.status, rows, told }
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

test('OXXO: a voucher in pesos beside the yen, shown and told; the invoice stays open until the stand-in says it is paid', async () => {
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, ...oxxo })
  expect(checkout).toMatchObject({ provider: 'dlocal', voucher: true, reused: false })
  let now = await state(quoted)
  const [row] = now.rows
  // ¥7,400 at 0.1175 MXN per yen: MXN 869.50, in centavos.
  expect(row).toMatchObject({
    status: 'pending',
    method: 'oxxo',
    country: 'MX',
    requestedJpy: 7400,
    localCurrency: 'MXN',
    localAmount: 86_950,
    fxRate: '0.1175',
  })
  expect(row?.voucherReference).toMatch(/^\d{14}$/)
  expect(row?.expiresAt?.getTime()).toBeGreaterThan(Date.now())
  expect(now.invoice).toBe('open')
  expect(now.told.map((told) => told.type)).toEqual(['payment_voucher'])
  expect(now.told[0]?.params).toMatchObject({
    method: 'OXXO',
    reference: row?.voucherReference,
    amountJpy: 7400,
  })
  // What dLocal was asked: our payment id as order id, our webhook, the return page.
  const sent = standIn.paymentForOrder(checkout.paymentId)
  expect(sent).toMatchObject({ amount: 869.5, currency: 'MXN', payment_method_id: 'OX' })
  expect(sent?.notification_url).toBe(`${orders.appUrl.replace(/\/+$/, '')}/api/payments/webhooks/dlocal`)

  // The panel shows the voucher and asks for nothing else; another click gives the same voucher.
  const panel = await getPaymentPanel(orders.as(ana), { kind: 'request', id: quoted.requestId })
  expect(panel.voucher).toMatchObject({
    method: 'oxxo',
    reference: row?.voucherReference,
    localCurrency: 'MXN',
    localAmount: 86_950,
  })
  expect(panel.canPay).toBe(false)
  const again = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, ...oxxo })
  expect(again).toMatchObject({ paymentId: checkout.paymentId, reused: true, voucher: true })
  // Another method while the voucher is open: refused (the customer may be at the shop).
  expect(
    await refusal(
      startCheckout(orders.as(ana), {
        invoiceId: quoted.invoiceId,
        provider: 'dlocal',
        country: 'MX',
        method: 'spei',
      }),
    ),
  ).toEqual({
    code: 'conflict',
    reason: 'paymentVoucherOpen',
  })
  // Reconciliation before the customer pays: still pending, nothing changes.
  await reconcilePendingPayments(system, new Date(Date.now() + 20 * 60_000))
  expect((await state(quoted)).invoice).toBe('open')

  // Hours later the customer pays at the shop: the stand-in's signed notification settles it.
  const paid = await standIn.pay(sent?.id ?? '')
  expect(paid.answer).toBe(200)
  now = await state(quoted)
  expect(now.invoice).toBe('paid')
  expect(now.request).toBe('paid')
  expect(now.rows[0]).toMatchObject({
    status: 'succeeded',
    amount: 7400,
    currency: 'JPY',
    captureRef: sent?.id,
  })
  expect(now.told.map((told) => told.type)).toEqual(['payment_voucher', 'payment_received'])

  // A replay is stored once and changes nothing.
  const events = (await db.select().from(webhookEvents)).length
  const replay = await standIn.replayLast()
  expect(replay.answer).toBe(200)
  expect((await db.select().from(webhookEvents)).length).toBe(events)
  expect((await state(quoted)).told).toHaveLength(2)
  // A forgery is refused and writes nothing.
  const forged = await standIn.sendForged(sent?.id ?? '')
  expect(forged.answer).toBe(400)
  expect((await db.select().from(webhookEvents)).length).toBe(events)
})

test('a voucher that expires unpaid: the payment fails, the customer is told and may pay again; paid after all, it is recorded as today', async () => {
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, ...oxxo })
  const ref = standIn.paymentForOrder(checkout.paymentId)?.id ?? ''
  await standIn.expire(ref)
  let now = await state(quoted)
  expect(now.rows[0]?.status).toBe('failed')
  expect(now.invoice).toBe('open')
  expect(now.told.map((told) => told.type)).toEqual(['payment_voucher', 'payment_voucher_expired'])
  expect(now.told[1]?.params).toMatchObject({ method: 'OXXO', reference: now.rows[0]?.voucherReference })
  const panel = await getPaymentPanel(orders.as(ana), { kind: 'request', id: quoted.requestId })
  expect(panel.voucher).toBeNull()
  expect(panel.canPay).toBe(true)
  // The expiry notification again: once.
  await standIn.replayLast()
  expect((await state(quoted)).told).toHaveLength(2)
  // Out of order: the shop's payment arrives after the expiry. Money taken is recorded (failed →
  // succeeded), as a late payment of the other providers is.
  await standIn.send(ref, 'PAID')
  now = await state(quoted)
  expect(now.rows[0]?.status).toBe('succeeded')
  expect(now.invoice).toBe('paid')
})

test('another amount in pesos than quoted: held for staff, never paid', async () => {
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, ...oxxo })
  const ref = standIn.paymentForOrder(checkout.paymentId)?.id ?? ''
  standIn.overrideAmount = 800
  await standIn.pay(ref)
  const now = await state(quoted)
  expect(now.rows[0]).toMatchObject({ status: 'held', amount: null, currency: 'MXN' })
  expect(now.invoice).toBe('open')
  expect(now.told.map((told) => told.type)).toContain('payment_review')
})

test('a notification that never came: reconciliation asks dLocal, also about a voucher older than three days', async () => {
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, ...oxxo })
  const ref = standIn.paymentForOrder(checkout.paymentId)?.id ?? ''
  standIn.webhookUrl = null
  await standIn.pay(ref)
  expect((await state(quoted)).invoice).toBe('open')
  // 73 hours later (past the 72-hour abandon window, before the voucher's expiry + a day).
  const report = await reconcilePendingPayments(system, new Date(Date.now() + 73 * 3_600_000))
  expect(report).toMatchObject({ paid: 1, abandoned: 0 })
  expect((await state(quoted)).invoice).toBe('paid')
})

test('a redirect method (Webpay): the bank page, then the return confirms with dLocal', async () => {
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const checkout = await startCheckout(orders.as(ana), {
    invoiceId: quoted.invoiceId,
    provider: 'dlocal',
    country: 'CL',
    method: 'webpay',
  })
  expect(checkout.voucher).toBe(false)
  expect(checkout.payUrl).toMatch(`${standIn.url}/checkout/`)
  const ref = standIn.paymentForOrder(checkout.paymentId)?.id ?? ''
  expect(standIn.payment(ref)).toMatchObject({ currency: 'CLP', amount: 46_250, payment_method_id: 'WP' })
  standIn.webhookUrl = null
  await standIn.pay(ref)
  const back = await confirmReturn(system, { provider: 'dlocal', paymentId: checkout.paymentId })
  expect(back.status).toBe('succeeded')
  expect((await state(quoted)).told.map((told) => told.type)).toEqual(['payment_received'])
})

test('methods follow the country: one not offered there, an unknown one, or none is refused before anything is written', async () => {
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const attempts: Record<string, unknown>[] = [
    { provider: 'dlocal', country: 'CL', method: 'oxxo' },
    { provider: 'dlocal', country: 'BR', method: 'spei' },
    { provider: 'dlocal', country: 'US', method: 'card' },
    { provider: 'dlocal', country: 'MX', method: 'bitcoin' },
    { provider: 'dlocal', country: 'MX' },
    { provider: 'dlocal' },
    { provider: 'dlocal', country: 'MX', method: `oxxo${'x'.repeat(5000)}` },
    { provider: 'dlocal', country: "MX'; drop table payments; --", method: 'oxxo' },
  ]
  for (const attempt of attempts) {
    expect(
      await refusal(startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, ...attempt } as never)),
    ).toEqual({
      code: 'invalid',
      reason: 'paymentMethodNotOffered',
    })
  }
  expect((await state(quoted)).rows).toHaveLength(0)
  // Someone else's invoice: not found, as a missing one.
  expect(
    await refusal(startCheckout(orders.as(bruno), { invoiceId: quoted.invoiceId, ...oxxo })),
  ).toMatchObject({
    code: 'not_found',
  })
  // Anonymous.
  expect(
    await refusal(startCheckout(orders.as(null), { invoiceId: quoted.invoiceId, ...oxxo })),
  ).toMatchObject({
    code: 'unauthorized',
  })
  // dLocal down: nothing the customer can use, the next click tries again.
  standIn.down = true
  expect(await refusal(startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, ...oxxo }))).toEqual({
    code: 'upstream_failed',
    reason: 'paymentProviderDown',
  })
  standIn.down = false
  const retried = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, ...oxxo })
  expect(retried.voucher).toBe(true)
  expect((await state(quoted)).rows).toHaveLength(1)
})
