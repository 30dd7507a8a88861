import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { translator } from '#app/i18n.server.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { getStatement, payFromBalance, recordTopUp, refundToBalance } from '#core/balance/balance-service.ts'
import { statementCsv } from '#core/balance/statement-csv.ts'
import { balanceOf } from '#core/balance-ledger/ledger.ts'
import { handleWebhook, startCheckout } from '#core/payments/payment-service.ts'
import { paymentProvidersFromEnv } from '#core/payments/provider.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { HTTP_STATUS, isAppError } from '#core/shared/errors.ts'
import { investigateClaim, openClaim, resolveClaim } from '#core/shipping/claims.ts'
import { shipShipment } from '#core/shipping/shipment-delivery.ts'
import { packShipment } from '#core/shipping/shipment-packing.ts'
import { balanceMovements, invoices, payments, refunds, shipments, webhookEvents } from '#db/schema/index.ts'
import { createTestDatabase, onFileCleanup } from '#tests/db.ts'
import { type DLocalStandIn, startDLocalStandIn } from '#tests/support/dlocal-stand-in/server.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { admin, ana, moderator, RATES, requestedShipment } from '#tests/support/shipment-fixtures.ts'

// Issue 32's "done when", in one walk through the real services, the two halves built apart
// (the balance, docs/decisions/050; dLocal, 051) together: a top-up by bank transfer recorded by
// an admin pays a quote whole; a shipping receipt is paid half from the balance and the rest by
// an OXXO voucher that the dLocal stand-in's signed notification pays later; the lost parcel's
// refund goes to the balance; the statement lists every movement with its running balance, in
// Spanish and in English. And a voucher left to expire: the balance part stays applied and the
// rest can be paid another way.

let standIn: DLocalStandIn
let setup: Awaited<ReturnType<typeof start>>

async function start() {
  const { db, pool } = await createTestDatabase()
  const providers = paymentProvidersFromEnv({ ...standIn.env, PAYMENT_PROVIDER_TIMEOUT_SECONDS: '2' })
  const orders = await createOrderTestDeps(db, pool, { payments: providers })
  const system = {
    db,
    jobs: orders.jobs,
    settings: orders.settings,
    payments: providers,
    appUrl: orders.appUrl,
  }
  // What the app's webhook route does, for the stand-in's signed notifications.
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
    )
    try {
      const { result } = await handleWebhook(system, req.url?.split('/').at(-1) ?? '', headers, body)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }))
    } catch (error) {
      if (!isAppError(error)) throw error
      res.writeHead(HTTP_STATUS[error.code], { 'content-type': 'application/json' }).end('{}')
    }
  })
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  standIn.webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/webhooks/`
  onFileCleanup(() => new Promise((resolve) => server.close(() => resolve())))
  return { db, pool, orders }
}

beforeAll(async () => {
  standIn = await startDLocalStandIn()
})
// Each walk on its own database (its people are inserted with its first shipment).
beforeEach(async () => {
  setup = await start()
})
afterAll(() => standIn.stop())

const oxxo = { provider: 'dlocal', country: 'MX', method: 'oxxo' } as const

/** A shipment of Ana's packed by a moderator (1,250 g): its shipping receipt, open. */
async function packedReceipt() {
  const { db, pool, orders } = setup
  const { shipment } = await requestedShipment(db, pool, orders)
  const packed = await packShipment(
    orders.as(moderator),
    { id: shipment.id, version: 0, weight: '1250' },
    RATES,
  )
  const [receipt] = await db.select().from(invoices).where(eq(invoices.id, packed.invoiceId))
  if (!receipt) throw new Error('no receipt')
  return { shipment, receipt }
}

async function statementIn(language: Language) {
  const t = translator(language)
  const { rows } = await getStatement(setup.orders.as(ana), ana.id)
  return statementCsv(rows, {
    header: {
      date: t('balance.csvHeader.date'),
      kind: t('balance.csvHeader.kind'),
      amount: t('balance.csvHeader.amount'),
      balance: t('balance.csvHeader.balance'),
      for: t('balance.csvHeader.for'),
      note: t('balance.csvHeader.note'),
    },
    kind: (kind) => t(`balance.kinds.${kind}`),
    date: japanDateTime(language),
    forOf: (row) => (row.owner ? t(`balance.${row.owner.kind}`, { number: row.owner.number }) : ''),
    noteOf: (row) => (row.reference ? t('balance.reasons.bank_transfer', { reference: row.reference }) : ''),
  })
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
}

test('a top-up pays a quote; a receipt half from the balance, the rest by an OXXO voucher paid later; the lost parcel refunded to the balance; every movement on the statement', async () => {
  const { db, pool, orders } = setup
  // Ana's shipment, packed: its receipt waits (and Ana, Bruno and the staff exist).
  const { shipment, receipt } = await packedReceipt()
  // 1. A bank transfer of ¥20,000, recorded by an admin.
  await recordTopUp(orders.as(admin), { userId: ana.id, amountJpy: '20000', reference: 'BANK-DONE-1' })
  expect(await balanceOf(db, ana.id)).toBe(20_000)

  // 2. A quote paid whole from the balance: paid at once.
  const quote = await insertQuotedRequest(pool, { userId: ana.id })
  const [quoteInvoice] = await db.select().from(invoices).where(eq(invoices.id, quote.invoiceId))
  const quoteTotal = quoteInvoice?.totalJpy ?? 0
  expect(
    await payFromBalance(orders.as(ana), { invoiceId: quote.invoiceId, amountJpy: String(quoteTotal) }),
  ).toMatchObject({ paid: true })
  expect((await db.select().from(invoices).where(eq(invoices.id, quote.invoiceId)))[0]?.status).toBe('paid')

  // 3. The shipping receipt: half from the balance, then the rest by OXXO.
  const half = Math.floor(receipt.totalJpy / 2)
  const rest = receipt.totalJpy - half
  expect(
    await payFromBalance(orders.as(ana), { invoiceId: receipt.id, amountJpy: String(half) }),
  ).toMatchObject({
    paid: false,
    dueJpy: rest,
  })
  const checkout = await startCheckout(orders.as(ana), { invoiceId: receipt.id, ...oxxo })
  expect(checkout).toMatchObject({ provider: 'dlocal', voucher: true })
  const [voucher] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
  // The voucher is for what is left, in yen and in pesos at the stand-in's rate (0.1175 MXN/JPY).
  expect(voucher).toMatchObject({ status: 'pending', requestedJpy: rest, localCurrency: 'MXN' })
  expect(voucher?.localAmount).toBe(Math.ceil(rest * 0.1175 * 100))
  const asked = standIn.paymentForOrder(checkout.paymentId)
  expect(asked).toMatchObject({ currency: 'MXN', payment_method_id: 'OX' })
  expect(asked?.amount).toBe((voucher?.localAmount ?? 0) / 100)
  // Open until the shop says it is paid; the box waits.
  expect((await db.select().from(invoices).where(eq(invoices.id, receipt.id)))[0]?.status).toBe('open')
  expect((await db.select().from(shipments).where(eq(shipments.id, shipment.id)))[0]?.status).toBe('packed')

  // Hours later, paid at the shop: the signed notification settles the receipt, once.
  expect((await standIn.pay(asked?.id ?? '')).answer).toBe(200)
  expect((await db.select().from(invoices).where(eq(invoices.id, receipt.id)))[0]?.status).toBe('paid')
  const [paidShipment] = await db.select().from(shipments).where(eq(shipments.id, shipment.id))
  expect(paidShipment?.status).toBe('paid')
  const events = (await db.select().from(webhookEvents)).length
  expect((await standIn.replayLast()).answer).toBe(200)
  expect((await db.select().from(webhookEvents)).length).toBe(events)
  expect(
    (await db.select().from(payments).where(eq(payments.invoiceId, receipt.id)))
      .map((row) => row.status)
      .sort(),
  ).toEqual(['succeeded', 'succeeded'])
  const afterPaying = 20_000 - quoteTotal - half
  expect(await balanceOf(db, ana.id)).toBe(afterPaying)

  // 4. Shipped, reported lost, confirmed lost: the refund due goes to the balance, once.
  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version: paidShipment?.version ?? 0,
    carrier: 'japan_post',
    trackingNumber: 'EE123456785JP',
  })
  const { claimId } = await openClaim(
    orders.as(ana),
    { id: shipment.id, version: shipped.version, note: 'No llegó nada' },
    new Date(Date.now() + 31 * 86_400_000),
  )
  await investigateClaim(orders.as(moderator), { claimId, version: 0, carrierReference: 'JP-CASE-9' })
  const lost = await resolveClaim(orders.as(admin), {
    claimId,
    version: 1,
    resolution: 'lost',
    reason: 'Japan Post confirmed the loss',
  })
  expect(lost.refundJpy).toBeGreaterThan(0)
  const due = await db.select().from(refunds).where(like(refunds.reason, 'lost parcel%'))
  expect(due.reduce((sum, row) => sum + row.amountJpy, 0)).toBe(lost.refundJpy)
  for (const row of due) await refundToBalance(orders.as(admin), { paymentId: row.paymentId })
  for (const row of due) {
    expect(await refusal(refundToBalance(orders.as(admin), { paymentId: row.paymentId }))).toMatchObject({
      reason: 'refundNothingDue',
    })
  }
  const final = afterPaying + lost.refundJpy
  expect(await balanceOf(db, ana.id)).toBe(final)

  // 5. The statement: every movement, newest first, each with the balance after it.
  const statement = await getStatement(orders.as(ana), ana.id)
  expect(statement.balanceJpy).toBe(final)
  const oldestFirst = [...statement.rows].reverse()
  expect(oldestFirst.map((row) => row.kind)).toEqual([
    'topup',
    'payment',
    'payment',
    ...due.map(() => 'refund'),
  ])
  let running = 0
  for (const row of oldestFirst) {
    running += row.amountJpy
    expect(row.balanceAfterJpy).toBe(running)
  }
  expect(oldestFirst[1]).toMatchObject({
    amountJpy: -quoteTotal,
    owner: { kind: 'request', id: quote.requestId },
  })
  expect(oldestFirst[2]).toMatchObject({ amountJpy: -half, owner: { kind: 'shipment', id: shipment.id } })
  const ledger = await db.select().from(balanceMovements).where(eq(balanceMovements.userId, ana.id))
  expect(ledger.reduce((sum, row) => sum + row.amountJpy, 0)).toBe(final)

  // In both languages: the same lines, the words of each.
  const es = await statementIn('es')
  const en = await statementIn('en')
  expect(es).toHaveLength(oldestFirst.length + 1)
  expect(en).toHaveLength(oldestFirst.length + 1)
  expect(es[0]).toBe(translator('es')('balance.csvHeader.date') + es[0]?.slice(es[0].indexOf(',')))
  expect(es[1]).toContain(translator('es')('balance.kinds.topup'))
  expect(en[1]).toContain(translator('en')('balance.kinds.topup'))
  expect(es[1]).toContain('BANK-DONE-1')
  expect(en.at(-1)).toContain(`,${final},`)
  expect(es.at(-1)).toContain(`,${final},`)
  expect(es.join('\n')).not.toEqual(en.join('\n'))
})

test('an OXXO voucher left to expire: the balance part stays applied and the rest is paid another way', async () => {
  const { db, orders } = setup
  const { shipment, receipt } = await packedReceipt()
  await recordTopUp(orders.as(admin), { userId: ana.id, amountJpy: '5000', reference: 'BANK-DONE-2' })
  const before = await balanceOf(db, ana.id)
  const part = 1000
  const rest = receipt.totalJpy - part
  await payFromBalance(orders.as(ana), { invoiceId: receipt.id, amountJpy: String(part) })
  const checkout = await startCheckout(orders.as(ana), { invoiceId: receipt.id, ...oxxo })
  await standIn.expire(standIn.paymentForOrder(checkout.paymentId)?.id ?? '')
  const [expired] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
  expect(expired?.status).toBe('failed')
  expect((await db.select().from(invoices).where(eq(invoices.id, receipt.id)))[0]?.status).toBe('open')
  // The balance part was not given back: it still pays its share of this receipt.
  expect(await balanceOf(db, ana.id)).toBe(before - part)
  // A transfer must match what is left, not the receipt's total.
  expect(
    await refusal(
      recordManualPayment(orders.as(admin), {
        invoiceId: receipt.id,
        version: 0,
        amountJpy: String(receipt.totalJpy),
        reference: 'BANK-REST-WRONG',
      }),
    ),
  ).toMatchObject({ code: 'invalid' })
  const [open] = await db.select().from(invoices).where(eq(invoices.id, receipt.id))
  await recordManualPayment(orders.as(admin), {
    invoiceId: receipt.id,
    version: open?.version ?? 0,
    amountJpy: String(rest),
    reference: 'BANK-REST',
  })
  expect((await db.select().from(invoices).where(eq(invoices.id, receipt.id)))[0]?.status).toBe('paid')
  expect((await db.select().from(shipments).where(eq(shipments.id, shipment.id)))[0]?.status).toBe('paid')
})
