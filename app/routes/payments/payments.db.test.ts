import { afterAll, beforeAll, expect, test } from 'vitest'
import { formatMoney } from '#core/money/money.ts'
import { startCheckout } from '#core/payments/payment-service.ts'
import { paymentProvidersFromEnv } from '#core/payments/provider.ts'
import { packShipment } from '#core/shipping/shipment-packing.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import {
  type PaymentStandIn,
  startPaymentStandIn,
  submitPayPage,
} from '#tests/support/payment-stand-in/server.ts'
import {
  callRoute,
  createTestServices,
  formPost,
  pageRequest,
  redirectOf,
  signedInCaller,
} from '#tests/support/route-context.ts'
import { ana, moderator, RATES, requestedShipment } from '#tests/support/shipment-fixtures.ts'
import { action as staffAction, loader as staffLoader } from '../admin/request.tsx'
import { action as staffShipmentAction } from '../admin/shipment.tsx'
import { middleware as staffMiddleware } from '../admin/staff-layout.tsx'
import { middleware as customerMiddleware } from '../customer/layout.tsx'
import { action as requestAction, loader as requestLoader } from '../customer/request.tsx'
import { loader as cancelLoader } from './cancel.tsx'
import { loader as returnLoader } from './return.tsx'

// The payment routes through their branches' middleware: the customer's pay intent and panel
// (with the stand-in's providers, and with none: bank transfer), the provider's return and
// cancel pages, and the staff page's bank transfer and refund forms for every role.

let standIn: PaymentStandIn
let db: Awaited<ReturnType<typeof createTestDatabase>>['db']
let pool: Awaited<ReturnType<typeof createTestDatabase>>['pool']
let withProviders: Awaited<ReturnType<typeof createTestServices>>
let manualOnly: Awaited<ReturnType<typeof createTestServices>>

beforeAll(async () => {
  ;({ db, pool } = await createTestDatabase())
  standIn = await startPaymentStandIn()
  withProviders = await createTestServices(db, pool, { payments: paymentProvidersFromEnv(standIn.env) })
  manualOnly = await createTestServices(db, pool)
})
afterAll(() => standIn.close())

type Services = typeof withProviders

const viewRequest = (services: Services, id: string, cookie?: string) =>
  callRoute(
    services,
    customerMiddleware,
    pageRequest(`/user-dashboard/requests/${id}`, { cookie }),
    (args) => requestLoader(args as never),
    { params: { id }, context: { language: 'en' } },
  )
const postRequest = (services: Services, id: string, fields: Record<string, string>, cookie?: string) =>
  callRoute(
    services,
    customerMiddleware,
    formPost(`/user-dashboard/requests/${id}`, fields, { cookie }),
    (args) => requestAction(args as never),
    { params: { id } },
  )
const viewStaff = (id: string, cookie?: string, search = '') =>
  callRoute(
    manualOnly,
    staffMiddleware,
    pageRequest(`/admin-dashboard/requests/${id}${search}`, { cookie }),
    (args) => staffLoader(args as never),
    { params: { id }, context: { language: 'en' } },
  )
const postStaff = (id: string, fields: Record<string, string>, cookie?: string) =>
  callRoute(
    manualOnly,
    staffMiddleware,
    formPost(`/admin-dashboard/requests/${id}`, fields, { cookie }),
    (args) => staffAction(args as never),
    { params: { id } },
  )
const providerPage = (kind: 'return' | 'cancel', provider: string, paymentId: string) =>
  callRoute(
    withProviders,
    [],
    pageRequest(`/payments/${kind}/${provider}?payment=${paymentId}`),
    (args) => (kind === 'return' ? returnLoader(args as never) : cancelLoader(args as never)),
    { params: { provider } },
  )

async function status(requestId: string) {
  const { rows } = await pool.query('SELECT status FROM purchase_requests WHERE id = $1', [requestId])
  return rows[0]?.status
}

async function count(table: 'payments', invoiceId: string) {
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE invoice_id = $1`, [
    invoiceId,
  ])
  return rows[0]?.n
}

test('no provider configured: the customer sees the bank-transfer details with the quote number; an admin records the transfer', async () => {
  const ana = await signedInCaller(pool, { email: 'ana.manual@example.com' })
  const admin = await signedInCaller(pool, { email: 'admin.manual@example.com', role: 'admin' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const page = await viewRequest(manualOnly, quoted.requestId, ana.cookie)
  expect(page.status).toBe(200)
  expect((page.data as { payment: unknown }).payment).toMatchObject({
    invoice: { id: quoted.invoiceId, number: quoted.invoiceNumber, status: 'open' },
    totalLabel: formatMoney(7400, 'JPY', 'en'),
    providers: [],
    bankTransfer: { bankName: 'Demo Bank', accountNumber: '0000000' },
    canPay: true,
    underReview: false,
  })
  // A pay intent with no provider configured: refused, nothing written.
  const refused = await postRequest(
    manualOnly,
    quoted.requestId,
    {
      intent: 'pay',
      invoiceId: quoted.invoiceId,
      provider: 'paypal',
    },
    ana.cookie,
  )
  expect(refused.status).toBe(400)
  expect(refused.data).toMatchObject({ payment: { error: 'errors.reasons.paymentProviderUnknown' } })

  const staffPage = await viewStaff(quoted.requestId, admin.cookie)
  expect((staffPage.data as { payments: unknown }).payments).toMatchObject({
    invoice: { number: quoted.invoiceNumber, totalLabel: formatMoney(7400, 'JPY', 'en'), version: 0 },
    rows: [],
    canRecord: true,
    canRefund: true,
  })
  const fields = {
    intent: 'record_payment',
    invoiceId: quoted.invoiceId,
    version: '0',
    amountJpy: '7,400',
    reference: 'MUFG ANA 1124',
  }
  const wrong = await postStaff(quoted.requestId, { ...fields, amountJpy: '7000' }, admin.cookie)
  expect(wrong.status).toBe(400)
  expect(wrong.data).toMatchObject({
    intent: 'record_payment',
    result: { error: { '': ['errors.reasons.paymentAmountMismatch'], amountJpy: ['amountMismatch'] } },
  })
  const recorded = await postStaff(quoted.requestId, fields, admin.cookie)
  expect(recorded.status).toBe(302)
  expect(redirectOf(recorded)).toEqual({
    location: `/admin-dashboard/requests/${quoted.requestId}`,
    notice: { name: 'paymentRecorded' },
  })
  const again = await postStaff(quoted.requestId, fields, admin.cookie)
  expect(again.status).toBe(409)
  expect(await status(quoted.requestId)).toBe('paid')
  expect(await count('payments', quoted.invoiceId)).toBe(1)
  const paidPage = await viewRequest(manualOnly, quoted.requestId, ana.cookie)
  expect((paidPage.data as { payment: unknown }).payment).toMatchObject({
    invoice: { status: 'paid' },
    paidWith: 'manual',
    canPay: false,
  })
  expect(
    ((await viewStaff(quoted.requestId, admin.cookie)).data as { payments: unknown }).payments,
  ).toMatchObject({
    rows: [
      { provider: 'manual', status: 'succeeded', reference: 'MUFG ANA 1124', recordedBy: 'admin.manual' },
    ],
    canRecord: false,
  })
})

test('recording a bank transfer, role by role: anonymous 401, customer 403 (the staff area), moderator 403 (the service: they see the payments, not the forms), admin 302', async () => {
  const ana = await signedInCaller(pool, { email: 'ana.roles@example.com' })
  const moderator = await signedInCaller(pool, { email: 'mod.roles@example.com', role: 'moderator' })
  const admin = await signedInCaller(pool, { email: 'admin.roles@example.com', role: 'admin' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const fields = {
    intent: 'record_payment',
    invoiceId: quoted.invoiceId,
    version: '0',
    amountJpy: '7400',
    reference: 'ROLES-1',
  }
  expect((await postStaff(quoted.requestId, fields)).status).toBe(401)
  expect((await postStaff(quoted.requestId, fields, ana.cookie)).status).toBe(403)
  expect((await postStaff(quoted.requestId, fields, moderator.cookie)).status).toBe(403)
  expect(
    (await postStaff(quoted.requestId, { ...fields, intent: 'refund_done' }, moderator.cookie)).status,
  ).toBe(403)
  const moderatorPage = await viewStaff(quoted.requestId, moderator.cookie)
  expect(moderatorPage.status).toBe(200)
  expect((moderatorPage.data as { payments: unknown }).payments).toMatchObject({
    canRecord: false,
    canRefund: false,
  })
  expect(await status(quoted.requestId)).toBe('quoted')
  expect((await postStaff(quoted.requestId, { ...fields, intent: 'nonsense' }, admin.cookie)).status).toBe(
    400,
  )
  expect((await postStaff(quoted.requestId, { ...fields, reference: '' }, admin.cookie)).status).toBe(400)
  expect(await status(quoted.requestId)).toBe('quoted')
  expect((await postStaff(quoted.requestId, fields, admin.cookie)).status).toBe(302)
  expect(await status(quoted.requestId)).toBe('paid')
})

test('with providers: the customer picks one and is sent to its page; returns paid with a message; another customer gets 404', async () => {
  const ana = await signedInCaller(pool, { email: 'ana.pay@example.com' })
  const bruno = await signedInCaller(pool, { email: 'bruno.pay@example.com' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const page = await viewRequest(withProviders, quoted.requestId, ana.cookie)
  expect((page.data as { payment: unknown }).payment).toMatchObject({
    providers: ['paypal', 'stripe'],
    canPay: true,
  })
  expect((await viewRequest(withProviders, quoted.requestId, bruno.cookie)).status).toBe(404)

  const pay = { intent: 'pay', invoiceId: quoted.invoiceId, provider: 'stripe' }
  expect((await postRequest(withProviders, quoted.requestId, pay)).status).toBe(401)
  const other = await postRequest(withProviders, quoted.requestId, pay, bruno.cookie)
  expect(other.status).toBe(404)
  const answer = await postRequest(withProviders, quoted.requestId, pay, ana.cookie)
  expect(answer.status).toBe(200)
  const checkout = (answer.data as { payment: { checkout: { payUrl: string; provider: string } } }).payment
    .checkout
  expect(checkout.provider).toBe('stripe')
  expect(checkout.payUrl.startsWith(standIn.url)).toBe(true)

  const approved = await submitPayPage(checkout.payUrl, 'Approve payment')
  const returnUrl = new URL(approved.location ?? '')
  expect(returnUrl.pathname).toBe('/payments/return/stripe')
  const paymentId = returnUrl.searchParams.get('payment') ?? ''
  const back = await providerPage('return', 'stripe', paymentId)
  expect(back.status).toBe(302)
  expect(back.headers.get('location')).toBe(`/user-dashboard/requests/${quoted.requestId}`)
  expect(back.headers.get('set-cookie')).toMatch(/^flash=paymentReceived;/)
  expect(await status(quoted.requestId)).toBe('paid')
  // Reloaded: the same answer, nothing more.
  expect((await providerPage('return', 'stripe', paymentId)).headers.get('set-cookie')).toMatch(
    /paymentReceived/,
  )
  // Unknown or mismatched payments: the not-found page.
  expect((await providerPage('return', 'paypal', paymentId)).status).toBe(404)
  expect((await providerPage('return', 'stripe', 'x')).status).toBe(404)
  expect((await providerPage('cancel', 'stripe', '00000000-0000-4000-8000-000000000000')).status).toBe(404)
})

test('cancelled on the provider page: back with a message, nothing changed; a provider that is down: 502 and a clear message', async () => {
  const ana = await signedInCaller(pool, { email: 'ana.cancel@example.com' })
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const pay = { intent: 'pay', invoiceId: quoted.invoiceId, provider: 'paypal' }
  standIn.down = 'error'
  const down = await postRequest(withProviders, quoted.requestId, pay, ana.cookie)
  standIn.down = false
  expect(down.status).toBe(502)
  expect(down.data).toMatchObject({
    payment: { checkout: null, error: 'errors.reasons.paymentProviderDown' },
  })
  const answer = await postRequest(withProviders, quoted.requestId, pay, ana.cookie)
  const { payUrl } = (answer.data as { payment: { checkout: { payUrl: string } } }).payment.checkout
  const cancelled = await submitPayPage(payUrl, 'Cancel and return')
  const cancelUrl = new URL(cancelled.location ?? '')
  expect(cancelUrl.pathname).toBe('/payments/cancel/paypal')
  const back = await providerPage('cancel', 'paypal', cancelUrl.searchParams.get('payment') ?? '')
  expect(back.status).toBe(302)
  expect(back.headers.get('location')).toBe(`/user-dashboard/requests/${quoted.requestId}`)
  expect(back.headers.get('set-cookie')).toMatch(/^flash=paymentCancelled;/)
  expect(await status(quoted.requestId)).toBe('quoted')
  const { rows } = await pool.query('SELECT status FROM invoices WHERE id = $1', [quoted.invoiceId])
  expect(rows[0]?.status).toBe('open')
  // Paying again offers the same checkout.
  const again = await postRequest(withProviders, quoted.requestId, pay, ana.cookie)
  expect((again.data as { payment: { checkout: { payUrl: string } } }).payment.checkout.payUrl).toBe(payUrl)
})

test('each money event its own message: a shipping receipt paid says the box leaves next; paid twice says it goes back; a refund sent or still processing says which', async () => {
  const orders = await createOrderTestDeps(db, pool, { payments: paymentProvidersFromEnv(standIn.env) })
  const { shipment } = await requestedShipment(db, pool, orders)
  const packed = await packShipment(
    orders.as(moderator),
    { id: shipment.id, version: 0, weight: '1250' },
    RATES,
  )
  const first = await startCheckout(orders.as(ana), { invoiceId: packed.invoiceId, provider: 'stripe' })
  const second = await startCheckout(orders.as(ana), { invoiceId: packed.invoiceId, provider: 'paypal' })
  await submitPayPage(first.payUrl, 'Approve payment')
  await submitPayPage(second.payUrl, 'Approve payment')
  await standIn.settled()
  const paid = await providerPage('return', 'stripe', first.paymentId)
  expect(paid.headers.get('location')).toBe(`/user-dashboard/shipments/${shipment.id}`)
  // Not "your request is paid and we will buy your items": the shipment's own words.
  expect(paid.headers.get('set-cookie')).toMatch(/^flash=shippingPaymentReceived;/)
  const twice = await providerPage('return', 'paypal', second.paymentId)
  expect(twice.headers.get('set-cookie')).toMatch(/^flash=paymentDuplicate;/)

  // The second payment goes back through PayPal, from the shipment's staff page: sent, or still
  // processing at the provider, each said as it is.
  const admin = await signedInCaller(pool, { email: 'admin.money@example.com', role: 'admin' })
  const refundVersion = async (paymentId: string) =>
    String((await pool.query('SELECT version FROM payments WHERE id = $1', [paymentId])).rows[0].version)
  const refund = async (paymentId: string) =>
    callRoute(
      withProviders,
      staffMiddleware,
      formPost(
        `/admin-dashboard/shipments/${shipment.id}`,
        { intent: 'refund_provider', paymentId, version: await refundVersion(paymentId), confirm: 'yes' },
        { cookie: admin.cookie },
      ),
      (args) => staffShipmentAction(args as never),
      { params: { id: shipment.id } },
    )
  standIn.refundStatus = 'pending'
  // What is due on it (the whole second payment) goes back, still processing at the provider;
  // then ¥100 owed on the first payment (say, an overpayment) goes back at once.
  const pending = await refund(second.paymentId)
  expect(redirectOf(pending)).toEqual({
    location: `/admin-dashboard/shipments/${shipment.id}`,
    notice: { name: 'refundPending' },
  })
  await pool.query(
    `INSERT INTO refunds (payment_id, amount_jpy, status, reason) VALUES ($1, 100, 'due', 'test')`,
    [first.paymentId],
  )
  standIn.refundStatus = 'succeeded'
  const sent = await refund(first.paymentId)
  expect(redirectOf(sent)).toEqual({
    location: `/admin-dashboard/shipments/${shipment.id}`,
    notice: { name: 'refundSent' },
  })
})
