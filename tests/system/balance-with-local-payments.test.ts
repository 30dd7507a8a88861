import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { translator } from '#app/i18n.server.ts'
import * as balancePage from '#app/routes/customer/balance.tsx'
import * as balanceCsv from '#app/routes/customer/balance-csv.ts'
import * as customerLayout from '#app/routes/customer/layout.tsx'
import { payFromBalance, recordTopUp, refundToBalance } from '#core/balance/balance-service.ts'
import { balanceOf } from '#core/balance-ledger/ledger.ts'
import { createAddress } from '#core/customers/profile-service.ts'
import { formatMoney } from '#core/money/money.ts'
import { handleWebhook, startCheckout } from '#core/payments/payment-service.ts'
import { getPaymentPanel } from '#core/payments/payment-views.ts'
import { type PaymentProvider, paymentProvidersFromEnv } from '#core/payments/provider.ts'
import type { PaymentSystemDeps } from '#core/payments/settle-payment.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import { HTTP_STATUS, isAppError } from '#core/shared/errors.ts'
import { investigateClaim, openClaim, resolveClaim } from '#core/shipping/claims.ts'
import { shipShipment } from '#core/shipping/shipment-delivery.ts'
import { packShipment } from '#core/shipping/shipment-packing.ts'
import { requestShipment } from '#core/shipping/shipment-service.ts'
import { bookArrival } from '#core/warehouse/arrival-service.ts'
import type { Database } from '#db/client.ts'
import {
  balanceMovements,
  invoices,
  notifications,
  payments,
  refunds,
  shipments,
  webhookEvents,
} from '#db/schema/index.ts'
import { createTestDatabase, onFileCleanup } from '#tests/db.ts'
import {
  insertSession,
  SESSION_COOKIE,
  signedSessionCookie,
  TEST_AUTH_SECRET,
} from '#tests/support/accounts.ts'
import { type DLocalStandIn, startDLocalStandIn } from '#tests/support/dlocal-stand-in/server.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { callFileRoute, callRoute, createTestServices, pageRequest } from '#tests/support/route-context.ts'
import { admin, ana, bruno, moderator, RATES } from '#tests/support/shipment-fixtures.ts'
import { insertPeople, requestVersion } from '#tests/support/warehouse-fixtures.ts'

// Issue 32's "done when", walked in one go through the real services (docs/decisions/050 and
// 051): a top-up by bank transfer recorded by an admin, a quote paid from the balance, a shipping
// receipt paid half from the balance and half by an OXXO voucher of the dLocal stand-in (paid
// hours later by its signed notification, replayed), a lost-parcel refund to the balance, the
// statement in Spanish and English (page and CSV) with its running balance, two spends of the
// same balance at once, and every refusal on the way a translated message. Then the voucher that
// expires instead: the balance part stays applied, the rest is paid another way, and the shop's
// late payment is refunded for exactly what it took.

let standIn: DLocalStandIn
let db: Database
let providers: PaymentProvider[]
let orders: Awaited<ReturnType<typeof createOrderTestDeps>>
let services: Awaited<ReturnType<typeof createTestServices>>
let system: PaymentSystemDeps
let pool: Awaited<ReturnType<typeof createTestDatabase>>['pool']
let anaCookie: string
const reasonsSeen = new Set<string>()

beforeAll(async () => {
  ;({ db, pool } = await createTestDatabase())
  standIn = await startDLocalStandIn()
  providers = paymentProvidersFromEnv({ ...standIn.env, PAYMENT_PROVIDER_TIMEOUT_SECONDS: '1' })
  orders = await createOrderTestDeps(db, pool, { payments: providers })
  services = await createTestServices(db, pool, { payments: providers })
  system = { db, jobs: orders.jobs, settings: orders.settings, payments: providers, appUrl: orders.appUrl }
  // The app's webhook receiver, as server/app.ts routes it.
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
  standIn.webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/webhooks/dlocal`
  onFileCleanup(() => new Promise((resolve) => server.close(() => resolve())))
  await insertPeople(db, [
    { ...ana, name: 'Ana Pérez', email: 'ana@example.com' },
    { ...bruno, name: 'Bruno Díaz', email: 'bruno@example.com' },
    { ...admin, name: 'Admin' },
    { ...moderator, name: 'Mod' },
  ])
  anaCookie = `${SESSION_COOKIE}=${signedSessionCookie(await insertSession(pool, ana.id), TEST_AUTH_SECRET)}`
})
afterAll(() => standIn.stop())
beforeEach(() => {
  standIn.overrideAmount = null
  standIn.down = false
})

const oxxo = { provider: 'dlocal', country: 'MX', method: 'oxxo' } as const

/** A refusal, remembered so the last test checks each has a message in both languages. */
async function refused(promise: Promise<unknown>) {
  const answer = await refusal(promise)
  if (answer.reason) reasonsSeen.add(String(answer.reason))
  return answer
}

async function ledgerOf(userId: string) {
  const rows = await db
    .select()
    .from(balanceMovements)
    .where(eq(balanceMovements.userId, userId))
    .orderBy(balanceMovements.id)
  return {
    rows,
    sum: rows.reduce((total, row) => total + row.amountJpy, 0),
    balance: await balanceOf(db, userId),
  }
}

async function invoiceRow(id: string) {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id))
  if (!row) throw new Error(`no invoice ${id}`)
  return row
}

const yen = (amount: number, language: 'es' | 'en') => formatMoney(amount, 'JPY', language)
/** As the statement shows an amount: money in with a plus. */
const signed = (amount: number, language: 'es' | 'en') =>
  amount > 0 ? `+${yen(amount, language)}` : yen(amount, language)

test('the whole path: top-up, quote from the balance, receipt half balance half OXXO, lost-parcel refund, statement in both languages', async () => {
  // 1. Ana tops up ¥20,000 by bank transfer; an admin records it.
  expect(
    await recordTopUp(orders.as(admin), { userId: ana.id, amountJpy: '20000', reference: 'BANK-TOPUP-1' }),
  ).toEqual({ balanceJpy: 20_000 })

  // 2. She pays her quote (¥7,400) whole from the balance.
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  expect(quoted.totalJpy).toBe(7400)
  expect(await payFromBalance(orders.as(ana), { invoiceId: quoted.invoiceId })).toMatchObject({
    amountJpy: 7400,
    paid: true,
    dueJpy: 0,
    balanceJpy: 12_600,
  })
  expect((await invoiceRow(quoted.invoiceId)).status).toBe('paid')

  // 3. The item arrives, she asks for it to be shipped, it is packed: a ¥5,000 shipping receipt.
  await bookArrival(orders.as(admin), {
    id: quoted.requestId,
    version: await requestVersion(pool, quoted.requestId),
    items: quoted.itemIds.map((id) => ({ id, received: 'on', weight: '1200' })),
    shelf: 'A-1',
  })
  const address = await createAddress(orders.as(ana), {
    fullName: 'Ana Pérez',
    street: 'Av. Larco 123',
    city: 'Lima',
    region: 'Lima',
    postalCode: '15074',
    country: 'PE',
    phone: '+51 1 234 5678',
    makeDefault: true,
  })
  const shipment = await requestShipment(
    orders.as(ana),
    { items: quoted.itemIds, addressId: address.id, method: 'economic' },
    RATES,
    { locale: 'es' },
  )
  const packed = await packShipment(
    orders.as(moderator),
    { id: shipment.id, version: 0, weight: '1250' },
    RATES,
  )
  const receipt = await invoiceRow(packed.invoiceId)
  expect(receipt.totalJpy).toBe(5000)

  // 4. Half of it from the balance.
  expect(await payFromBalance(orders.as(ana), { invoiceId: receipt.id, amountJpy: '2500' })).toMatchObject({
    amountJpy: 2500,
    paid: false,
    dueJpy: 2500,
    balanceJpy: 10_100,
  })
  // More than what is left, from the balance: refused, nothing taken.
  expect(
    await refused(payFromBalance(orders.as(ana), { invoiceId: receipt.id, amountJpy: '2501' })),
  ).toMatchObject({ code: 'invalid', reason: 'balanceAboveDue' })

  // 5. The rest by OXXO: the voucher is for exactly the ¥2,500 still due, in pesos at the quoted rate.
  const checkout = await startCheckout(orders.as(ana), { invoiceId: receipt.id, ...oxxo })
  expect(checkout).toMatchObject({ provider: 'dlocal', voucher: true, reused: false })
  const [voucherRow] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
  // ¥2,500 × 0.1175 MXN = MXN 293.75, in centavos.
  expect(voucherRow).toMatchObject({
    provider: 'dlocal',
    status: 'pending',
    method: 'oxxo',
    requestedJpy: 2500,
    localCurrency: 'MXN',
    localAmount: 29_375,
    fxRate: '0.1175',
  })
  const sent = standIn.paymentForOrder(checkout.paymentId)
  expect(sent).toMatchObject({ amount: 293.75, currency: 'MXN', payment_method_id: 'OX' })
  const panel = await getPaymentPanel(orders.as(ana), { kind: 'shipment', id: shipment.id })
  expect(panel.invoice).toMatchObject({
    status: 'open',
    totalJpy: 5000,
    balanceAppliedJpy: 2500,
    dueJpy: 2500,
  })
  expect(panel.voucher).toMatchObject({ reference: voucherRow?.voucherReference, localAmount: 29_375 })
  const voucherTold = await db
    .select({ params: notifications.params })
    .from(notifications)
    .where(and(eq(notifications.userId, ana.id), eq(notifications.type, 'payment_voucher')))
  expect(voucherTold).toMatchObject([
    { params: { amountJpy: 2500, reference: voucherRow?.voucherReference } },
  ])
  // While the voucher can still be paid at the shop, neither the balance nor another way pays the
  // rest (she might pay twice).
  expect(await refused(payFromBalance(orders.as(ana), { invoiceId: receipt.id }))).toMatchObject({
    code: 'conflict',
    reason: 'paymentVoucherOpen',
  })
  expect(
    await refused(
      startCheckout(orders.as(ana), {
        invoiceId: receipt.id,
        provider: 'dlocal',
        country: 'MX',
        method: 'spei',
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'paymentVoucherOpen' })
  // Bruno cannot touch her receipt.
  expect(await refused(payFromBalance(orders.as(bruno), { invoiceId: receipt.id }))).toMatchObject({
    code: 'not_found',
  })
  expect((await invoiceRow(receipt.id)).status).toBe('open')
  expect((await db.select().from(shipments).where(eq(shipments.id, shipment.id)))[0]?.status).toBe('packed')
  expect((await ledgerOf(ana.id)).balance).toBe(10_100)

  // 6. Hours later she pays at the OXXO: the stand-in's signed notification pays the receipt, once.
  expect((await standIn.pay(sent?.id ?? '')).answer).toBe(200)
  const paidReceipt = await invoiceRow(receipt.id)
  expect(paidReceipt.status).toBe('paid')
  expect((await db.select().from(shipments).where(eq(shipments.id, shipment.id)))[0]?.status).toBe('paid')
  const receiptPayments = await db
    .select()
    .from(payments)
    .where(eq(payments.invoiceId, receipt.id))
    .orderBy(payments.createdAt)
  expect(receiptPayments).toMatchObject([
    { provider: 'balance', status: 'succeeded', amount: 2500, currency: 'JPY' },
    { provider: 'dlocal', status: 'succeeded', amount: 2500, currency: 'JPY', captureRef: sent?.id },
  ])
  const events = (await db.select().from(webhookEvents)).length
  expect((await standIn.replayLast()).answer).toBe(200)
  expect((await db.select().from(webhookEvents)).length).toBe(events)
  expect(await invoiceRow(receipt.id)).toMatchObject({ status: 'paid', version: paidReceipt.version })
  expect(await db.select().from(refunds)).toEqual([])
  const receivedTold = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, ana.id), eq(notifications.type, 'payment_received')))
  expect(receivedTold).toHaveLength(1)
  // Paid: nothing more can be paid on it.
  expect(await refused(payFromBalance(orders.as(ana), { invoiceId: receipt.id }))).toMatchObject({
    code: 'conflict',
    reason: 'invoicePaid',
  })

  // 7. The parcel is lost: an admin confirms it, half the items' value is due back, to the balance.
  const [paidShipment] = await db.select().from(shipments).where(eq(shipments.id, shipment.id))
  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version: paidShipment?.version ?? 0,
    carrier: 'japan_post',
    trackingNumber: 'EE123456785JP',
  })
  const later = new Date(Date.now() + 31 * 86_400_000)
  const { claimId } = await openClaim(
    orders.as(ana),
    { id: shipment.id, version: shipped.version, note: 'Nada llegó' },
    later,
  )
  await investigateClaim(orders.as(moderator), { claimId, version: 0, carrierReference: 'JP-CASE-1' })
  const resolved = await resolveClaim(orders.as(admin), {
    claimId,
    version: 1,
    resolution: 'lost',
    reason: 'Japan Post confirmed the loss',
  })
  // Half of the ¥5,000 of goods (2 × ¥2,500).
  expect(resolved.refundJpy).toBe(2500)
  const due = await db.select().from(refunds).where(eq(refunds.status, 'due'))
  expect(due).toHaveLength(1)
  const quotePayment = due[0]?.paymentId ?? ''
  expect(await refused(refundToBalance(orders.as(moderator), { paymentId: quotePayment }))).toMatchObject({
    code: 'forbidden',
  })
  expect(await refundToBalance(orders.as(admin), { paymentId: quotePayment })).toEqual({
    amountJpy: 2500,
    balanceJpy: 12_600,
  })
  expect(await refused(refundToBalance(orders.as(admin), { paymentId: quotePayment }))).toMatchObject({
    reason: 'refundNothingDue',
  })

  // 8. Two quotes paid at once from the same ¥12,600: one goes through, the other is refused.
  const first = await insertQuotedRequest(pool, { userId: ana.id })
  const second = await insertQuotedRequest(pool, { userId: ana.id })
  const results = await Promise.allSettled(
    [first, second].map((quote) =>
      payFromBalance(orders.as(ana), { invoiceId: quote.invoiceId, amountJpy: '7400' }),
    ),
  )
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
  const lost = results.find((result) => result.status === 'rejected')
  expect(lost?.status === 'rejected' && lost.reason).toMatchObject({
    code: 'conflict',
    details: { reason: 'balanceTooLow' },
  })
  reasonsSeen.add('balanceTooLow')
  const paidQuote = (await invoiceRow(first.invoiceId)).status === 'paid' ? first : second
  const unpaidQuote = paidQuote === first ? second : first
  expect((await invoiceRow(unpaidQuote.invoiceId)).status).toBe('open')
  expect(await db.select().from(payments).where(eq(payments.invoiceId, unpaidQuote.invoiceId))).toEqual([])

  // The ledger, oldest first, each running balance the sum up to it; the balance row equal to it.
  const ledger = await ledgerOf(ana.id)
  expect(ledger.rows.map((row) => [row.kind, row.amountJpy, row.balanceAfterJpy, row.invoiceId])).toEqual([
    ['topup', 20_000, 20_000, null],
    ['payment', -7400, 12_600, quoted.invoiceId],
    ['payment', -2500, 10_100, receipt.id],
    ['refund', 2500, 12_600, quoted.invoiceId],
    ['payment', -7400, 5200, paidQuote.invoiceId],
  ])
  expect(ledger).toMatchObject({ sum: 5200, balance: 5200 })

  // 9. The statement she reads, in Spanish and in English: newest first, page and CSV.
  const page = (language: 'es' | 'en') =>
    callRoute(
      services,
      customerLayout.middleware,
      pageRequest('/user-dashboard/balance', { cookie: anaCookie }),
      (args) => balancePage.loader(args as never),
      { context: { language } },
    )
  for (const language of ['es', 'en'] as const) {
    const answer = await page(language)
    expect(answer.status).toBe(200)
    const view = (answer.data as { statement: { balanceLabel: string; rows: unknown[] } }).statement
    expect(view.balanceLabel).toBe(yen(5200, language))
    expect(view.rows).toMatchObject([
      {
        kind: 'payment',
        amountLabel: signed(-7400, language),
        balanceLabel: yen(5200, language),
        owner: { kind: 'request', number: paidQuote.requestNumber },
      },
      {
        kind: 'refund',
        amountLabel: signed(2500, language),
        balanceLabel: yen(12_600, language),
        owner: { kind: 'request', number: quoted.requestNumber },
        invoice: { number: quoted.invoiceNumber },
      },
      {
        kind: 'payment',
        amountLabel: signed(-2500, language),
        balanceLabel: yen(10_100, language),
        owner: {
          kind: 'shipment',
          number: shipment.number,
          href: `/user-dashboard/shipments/${shipment.id}`,
        },
        invoice: { number: receipt.number },
      },
      {
        kind: 'payment',
        amountLabel: signed(-7400, language),
        balanceLabel: yen(12_600, language),
        owner: { kind: 'request', number: quoted.requestNumber },
      },
      {
        kind: 'topup',
        amountLabel: signed(20_000, language),
        balanceLabel: yen(20_000, language),
        reference: 'BANK-TOPUP-1',
      },
    ])
  }
  const csv = async (language: 'es' | 'en') => {
    const request = pageRequest('/user-dashboard/balance.csv', { cookie: anaCookie })
    request.headers.set('accept', 'text/html,*/*;q=0.8')
    const answer = await callFileRoute(services, customerLayout, balanceCsv, request, {
      context: { language },
    })
    expect(answer.status).toBe(200)
    return String(answer.data)
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .map((line) => line.replace(/^("[^"]*"|[^,]*),/, ''))
  }
  expect(await csv('es')).toEqual([
    'Movimiento,Monto (JPY),Saldo (JPY),Para,Nota',
    'Recarga,20000,20000,,Transferencia bancaria BANK-TOPUP-1',
    `Pago,-7400,12600,Solicitud ${quoted.requestNumber} · Factura ${quoted.invoiceNumber},`,
    `Pago,-2500,10100,Envío ${shipment.number} · Factura ${receipt.number},`,
    `Reembolso,2500,12600,Solicitud ${quoted.requestNumber} · Factura ${quoted.invoiceNumber},`,
    `Pago,-7400,5200,Solicitud ${paidQuote.requestNumber} · Factura ${paidQuote.invoiceNumber},`,
    '',
  ])
  const english = await csv('en')
  expect(english[0]).toBe('Movement,Amount (JPY),Balance (JPY),For,Note')
  expect(english.slice(1)).toEqual([
    'Top-up,20000,20000,,Bank transfer BANK-TOPUP-1',
    `Payment,-7400,12600,Request ${quoted.requestNumber} · Invoice ${quoted.invoiceNumber},`,
    `Payment,-2500,10100,Shipment ${shipment.number} · Invoice ${receipt.number},`,
    `Refund,2500,12600,Request ${quoted.requestNumber} · Invoice ${quoted.invoiceNumber},`,
    `Payment,-7400,5200,Request ${paidQuote.requestNumber} · Invoice ${paidQuote.invoiceNumber},`,
    '',
  ])
})

test('the voucher expires instead: the balance part stays applied, the rest is paid another way, and the late shop payment comes back for exactly what it took', async () => {
  await recordTopUp(orders.as(admin), { userId: bruno.id, amountJpy: '3000', reference: 'BANK-TOPUP-2' })
  const quoted = await insertQuotedRequest(pool, { userId: bruno.id })
  await payFromBalance(orders.as(bruno), { invoiceId: quoted.invoiceId, amountJpy: '3000' })
  const checkout = await startCheckout(orders.as(bruno), { invoiceId: quoted.invoiceId, ...oxxo })
  const ref = standIn.paymentForOrder(checkout.paymentId)?.id ?? ''
  // ¥4,400 left: MXN 517.00.
  expect(standIn.payment(ref)).toMatchObject({ amount: 517, currency: 'MXN' })

  expect((await standIn.expire(ref)).answer).toBe(200)
  const [expired] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
  expect(expired?.status).toBe('failed')
  // The invoice stays open with the ¥3,000 still applied (docs/decisions/050: a balance part is
  // given back only when the invoice is voided or expires), so only ¥4,400 is asked.
  const panel = await getPaymentPanel(orders.as(bruno), { kind: 'request', id: quoted.requestId })
  expect(panel.invoice).toMatchObject({ status: 'open', balanceAppliedJpy: 3000, dueJpy: 4400 })
  expect(panel.voucher).toBeNull()
  expect(panel.canPay).toBe(true)
  expect((await ledgerOf(bruno.id)).rows.map((row) => row.kind)).toEqual(['topup', 'payment'])
  // The balance is empty now: a clear refusal.
  expect(await refused(payFromBalance(orders.as(bruno), { invoiceId: quoted.invoiceId }))).toMatchObject({
    code: 'conflict',
    reason: 'balanceEmpty',
  })

  // He pays the rest by bank transfer, recorded by an admin: the whole total is refused, the rest accepted.
  const open = await invoiceRow(quoted.invoiceId)
  expect(
    await refused(
      recordManualPayment(orders.as(admin), {
        invoiceId: quoted.invoiceId,
        version: open.version,
        amountJpy: String(quoted.totalJpy),
        reference: 'BANK-REST-2',
      }),
    ),
  ).toMatchObject({ code: 'invalid' })
  await recordManualPayment(orders.as(admin), {
    invoiceId: quoted.invoiceId,
    version: open.version,
    amountJpy: '4400',
    reference: 'BANK-REST-2',
  })
  expect((await invoiceRow(quoted.invoiceId)).status).toBe('paid')

  // Days later the shop's payment of the expired voucher arrives after all: money taken on a paid
  // invoice is a duplicate, refunded for exactly the ¥4,400 it took (not the ¥7,400 total), and
  // Bruno is told that amount.
  expect((await standIn.send(ref, 'PAID')).answer).toBe(200)
  const [late] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
  expect(late?.status).toBe('duplicate')
  const due = await db.select().from(refunds).where(eq(refunds.paymentId, checkout.paymentId))
  expect(due).toMatchObject([{ amountJpy: 4400, status: 'due', reason: 'duplicate_payment' }])
  const told = await db
    .select({ params: notifications.params })
    .from(notifications)
    .where(and(eq(notifications.userId, bruno.id), eq(notifications.type, 'payment_refunding')))
  expect(told).toMatchObject([{ params: { amountJpy: 4400 } }])
  // He takes it to his balance: ¥4,400, never more than the invoice captured.
  expect(await refundToBalance(orders.as(bruno), { paymentId: checkout.paymentId })).toEqual({
    amountJpy: 4400,
    balanceJpy: 4400,
  })
  const ledger = await ledgerOf(bruno.id)
  expect(ledger.rows.map((row) => [row.kind, row.amountJpy, row.balanceAfterJpy])).toEqual([
    ['topup', 3000, 3000],
    ['payment', -3000, 0],
    ['refund', 4400, 4400],
  ])
  expect(ledger.sum).toBe(ledger.balance)
})

test('every refusal on the way is a message in both languages', () => {
  expect([...reasonsSeen].sort()).toEqual(
    [
      'balanceAboveDue',
      'balanceAdminsOnly',
      'balanceEmpty',
      'balanceTooLow',
      'invoiceNotFound',
      'invoicePaid',
      'paymentAmountMismatch',
      'paymentVoucherOpen',
      'refundNothingDue',
    ].sort(),
  )
  for (const language of ['es', 'en'] as const) {
    const t = translator(language)
    for (const reason of reasonsSeen) {
      const message = t(`errors.reasons.${reason}`)
      expect(message, `${language} ${reason}`).not.toContain('errors.reasons')
      expect(message.length).toBeGreaterThan(15)
    }
  }
})
