import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { getAnalytics } from '#core/analytics/analytics.ts'
import { parsePeriod } from '#core/analytics/period.ts'
import { balanceOf } from '#core/balance-ledger/ledger.ts'
import { applyInvoiceEvent } from '#core/billing/invoice-service.ts'
import { confirmReturn, startCheckout } from '#core/payments/payment-service.ts'
import { paymentProvidersFromEnv } from '#core/payments/provider.ts'
import { markRefundDone, recordManualPayment } from '#core/payments/staff-payments.ts'
import { investigateClaim, openClaim, resolveClaim } from '#core/shipping/claims.ts'
import { shipShipment } from '#core/shipping/shipment-delivery.ts'
import { packShipment } from '#core/shipping/shipment-packing.ts'
import {
  auditLog,
  balanceAccounts,
  balanceMovements,
  invoices,
  notifications,
  payments,
  purchaseRequests,
  refunds,
  shipments,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest, type QuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import {
  type PaymentStandIn,
  startPaymentStandIn,
  submitPayPage,
} from '#tests/support/payment-stand-in/server.ts'
import { refusal } from '#tests/support/refusal.ts'
import { admin, ana, bruno, moderator, RATES, requestedShipment } from '#tests/support/shipment-fixtures.ts'
import { insertPeople } from '#tests/support/warehouse-fixtures.ts'
import {
  adjustBalance,
  getStatement,
  payFromBalance,
  recordTopUp,
  refundToBalance,
} from './balance-service.ts'

// The customer balance (issue 32, docs/decisions/050): top-ups recorded by admins, payments of
// quotes and shipping receipts from the balance (whole, or part with a provider), refunds to the
// balance, adjustments by admins only, the ledger append-only and never below zero, even when
// many payments spend the same balance at once.

let standIn: PaymentStandIn
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
  // Ana's shipment, requested (its people inserted): packed later for a shipping receipt.
  const { shipment } = await requestedShipment(db, pool, orders)
  let reference = 0
  const topUp = (userId: string, amountJpy: number) =>
    recordTopUp(orders.as(admin), { userId, amountJpy: String(amountJpy), reference: `BANK-${++reference}` })
  /** Sum of the ledger, and the running balance row: always the same. */
  const ledger = async (userId: string) => {
    const rows = await db.select().from(balanceMovements).where(eq(balanceMovements.userId, userId))
    return {
      sum: rows.reduce((total, row) => total + row.amountJpy, 0),
      balance: await balanceOf(db, userId),
      rows,
    }
  }
  return { db, pool, orders, system, shipment, topUp, ledger }
}

beforeAll(async () => {
  standIn = await startPaymentStandIn()
  setup = await start()
})
afterAll(() => standIn.close())

test('only an admin records a top-up; bad amounts and references are refused with nothing written', async () => {
  const { db, orders, ledger } = setup
  const input = { userId: bruno.id, amountJpy: '¥20,000', reference: 'BANK-TOPUP-1' }
  expect(await refusal(recordTopUp(orders.as(null), input))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(recordTopUp(orders.as(bruno), input))).toMatchObject({
    code: 'forbidden',
    reason: 'balanceAdminsOnly',
  })
  expect(await refusal(recordTopUp(orders.as(moderator), input))).toMatchObject({
    code: 'forbidden',
    reason: 'balanceAdminsOnly',
  })
  for (const [amountJpy, error] of [
    ['', 'amountRequired'],
    [undefined, 'amountRequired'],
    ['-5000', 'amountWhole'],
    ['1500.5', 'amountWhole'],
    ['mil', 'amountWhole'],
    ['999', 'topUpRange'],
    ['1000001', 'topUpRange'],
    ['99999999999999999999', 'amountWhole'],
  ] as const) {
    expect(await refusal(recordTopUp(orders.as(admin), { ...input, amountJpy }))).toMatchObject({
      code: 'invalid',
      fields: { amountJpy: [error] },
    })
  }
  expect(await refusal(recordTopUp(orders.as(admin), { ...input, reference: '  ' }))).toMatchObject({
    fields: { reference: ['referenceRequired'] },
  })
  expect(
    await refusal(recordTopUp(orders.as(admin), { ...input, reference: 'x'.repeat(101) })),
  ).toMatchObject({
    fields: { reference: ['referenceTooLong'] },
  })
  expect(await refusal(recordTopUp(orders.as(admin), { ...input, userId: 'nobody' }))).toMatchObject({
    code: 'not_found',
  })
  expect((await ledger(bruno.id)).rows).toEqual([])

  expect(await recordTopUp(orders.as(admin), input)).toEqual({ balanceJpy: 20000 })
  // The same bank transfer is never counted twice.
  expect(await refusal(recordTopUp(orders.as(admin), input))).toMatchObject({
    code: 'conflict',
    reason: 'topUpReferenceUsed',
    fields: { reference: ['referenceUsed'] },
  })
  const after = await ledger(bruno.id)
  expect(after).toMatchObject({ sum: 20000, balance: 20000 })
  expect(after.rows).toMatchObject([
    { kind: 'topup', amountJpy: 20000, balanceAfterJpy: 20000, reference: 'BANK-TOPUP-1', actorId: admin.id },
  ])
  const audits = await db.select().from(auditLog).where(eq(auditLog.kind, 'balance.topup'))
  expect(audits).toMatchObject([{ actorId: admin.id, subjectId: bruno.id, after: { amountJpy: 20000 } }])
  const told = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, bruno.id), eq(notifications.type, 'balance_topped_up')))
  expect(told).toHaveLength(1)
})

test('a quote paid whole from the balance is paid at once; strangers and staff cannot use it', async () => {
  const { db, pool, orders, topUp, ledger } = setup
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  expect(await refusal(payFromBalance(orders.as(ana), { invoiceId: quoted.invoiceId }))).toMatchObject({
    code: 'conflict',
    reason: 'balanceEmpty',
  })
  await topUp(ana.id, quoted.totalJpy + 1000)
  expect(await refusal(payFromBalance(orders.as(null), { invoiceId: quoted.invoiceId }))).toMatchObject({
    code: 'unauthorized',
  })
  expect(await refusal(payFromBalance(orders.as(bruno), { invoiceId: quoted.invoiceId }))).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(payFromBalance(orders.as(admin), { invoiceId: quoted.invoiceId }))).toMatchObject({
    code: 'forbidden',
  })
  expect(await refusal(payFromBalance(orders.as(ana), { invoiceId: 'not-an-id' }))).toMatchObject({
    code: 'not_found',
  })
  for (const [amountJpy, error] of [
    ['-1', 'amountWhole'],
    ['0', 'amountWhole'],
    ['10.5', 'amountWhole'],
    ['abc', 'amountWhole'],
  ] as const) {
    expect(
      await refusal(payFromBalance(orders.as(ana), { invoiceId: quoted.invoiceId, amountJpy })),
    ).toMatchObject({ code: 'invalid', fields: { amountJpy: [error] } })
  }
  expect(
    await refusal(
      payFromBalance(orders.as(ana), { invoiceId: quoted.invoiceId, amountJpy: String(quoted.totalJpy + 1) }),
    ),
  ).toMatchObject({ code: 'invalid', reason: 'balanceAboveDue' })

  const paid = await payFromBalance(orders.as(ana), { invoiceId: quoted.invoiceId, amountJpy: '' })
  expect(paid).toMatchObject({ amountJpy: quoted.totalJpy, paid: true, dueJpy: 0, balanceJpy: 1000 })
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, quoted.invoiceId))
  expect(invoice?.status).toBe('paid')
  const [request] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, quoted.requestId))
  expect(request?.status).toBe('paid')
  expect(await db.select().from(payments).where(eq(payments.invoiceId, quoted.invoiceId))).toMatchObject([
    { provider: 'balance', status: 'succeeded', requestedJpy: quoted.totalJpy, amount: quoted.totalJpy },
  ])
  // Paid once: a second try is refused and takes nothing.
  expect(await refusal(payFromBalance(orders.as(ana), { invoiceId: quoted.invoiceId }))).toMatchObject({
    code: 'conflict',
    reason: 'invoicePaid',
  })
  const after = await ledger(ana.id)
  expect(after.sum).toBe(after.balance)
  expect(after.balance).toBe(1000)
  const staffTold = await db.select().from(notifications).where(eq(notifications.type, 'quote_paid'))
  expect(staffTold.length).toBeGreaterThan(0)
})

test('a shipping receipt paid half from the balance and half by Stripe; the provider is asked only for the rest', async () => {
  const { db, orders, system, shipment, topUp, ledger } = setup
  const packed = await packShipment(
    orders.as(moderator),
    { id: shipment.id, version: 0, weight: '1250' },
    RATES,
  )
  const [receipt] = await db.select().from(invoices).where(eq(invoices.id, packed.invoiceId))
  if (!receipt) throw new Error('no receipt')
  const half = Math.floor(receipt.totalJpy / 2)
  const start = await balanceOf(db, ana.id)
  await topUp(ana.id, Math.max(1000, half))
  const part = await payFromBalance(orders.as(ana), { invoiceId: receipt.id, amountJpy: String(half) })
  expect(part).toMatchObject({ amountJpy: half, paid: false, dueJpy: receipt.totalJpy - half })
  const [stillPacked] = await db.select().from(shipments).where(eq(shipments.id, shipment.id))
  expect(stillPacked?.status).toBe('packed')

  const checkout = await startCheckout(orders.as(ana), { invoiceId: receipt.id, provider: 'stripe' })
  const [pending] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
  expect(pending?.requestedJpy).toBe(receipt.totalJpy - half)
  await submitPayPage(checkout.payUrl, 'Approve payment')
  expect((await confirmReturn(system, { provider: 'stripe', paymentId: checkout.paymentId })).status).toBe(
    'succeeded',
  )
  const [paidReceipt] = await db.select().from(invoices).where(eq(invoices.id, receipt.id))
  expect(paidReceipt?.status).toBe('paid')
  const [paidShipment] = await db.select().from(shipments).where(eq(shipments.id, shipment.id))
  expect(paidShipment?.status).toBe('paid')
  const after = await ledger(ana.id)
  expect(after.balance).toBe(start + Math.max(1000, half) - half)
  expect(after.sum).toBe(after.balance)

  // A refund due on the Stripe part goes to the balance at once, if an admin chooses so.
  await db
    .insert(refunds)
    .values({ paymentId: checkout.paymentId, amountJpy: 700, status: 'due', reason: 'goodwill' })
  expect(
    await refusal(refundToBalance(orders.as(moderator), { paymentId: checkout.paymentId })),
  ).toMatchObject({
    code: 'forbidden',
  })
  expect(await refusal(refundToBalance(orders.as(bruno), { paymentId: checkout.paymentId }))).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(refundToBalance(orders.as(admin), { paymentId: 'x' }))).toMatchObject({
    code: 'not_found',
  })
  const before = await balanceOf(db, ana.id)
  expect(await refundToBalance(orders.as(admin), { paymentId: checkout.paymentId })).toEqual({
    amountJpy: 700,
    balanceJpy: before + 700,
  })
  // Done once: neither a second refund to the balance nor one by hand.
  expect(await refusal(refundToBalance(orders.as(admin), { paymentId: checkout.paymentId }))).toMatchObject({
    reason: 'refundNothingDue',
  })
  const [row] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
  expect(
    await refusal(
      markRefundDone(orders.as(admin), {
        paymentId: checkout.paymentId,
        version: row?.version ?? 0,
        reference: 'X',
      }),
    ),
  ).toMatchObject({ reason: 'refundNothingDue' })
  const statement = await getStatement(orders.as(ana), ana.id)
  expect(statement.rows[0]).toMatchObject({
    kind: 'refund',
    amountJpy: 700,
    owner: { kind: 'shipment', id: shipment.id },
    invoice: { number: receipt.number },
  })
  expect(statement.rows.find((r) => r.kind === 'payment' && r.invoice?.id === receipt.id)).toMatchObject({
    amountJpy: -half,
  })
  // Only Ana and staff read it.
  expect(await refusal(getStatement(orders.as(bruno), ana.id))).toMatchObject({ code: 'not_found' })
  expect((await getStatement(orders.as(moderator), ana.id)).balanceJpy).toBe(statement.balanceJpy)
})

test('the customer may take a refund on its way into their own balance; not someone else', async () => {
  const { db, pool, orders, topUp } = setup
  const quoted = await insertQuotedRequest(pool, { userId: bruno.id })
  await topUp(bruno.id, quoted.totalJpy)
  const paid = await payFromBalance(orders.as(bruno), { invoiceId: quoted.invoiceId })
  await db
    .insert(refunds)
    .values({ paymentId: paid.paymentId, amountJpy: 1200, status: 'due', reason: 'item unavailable' })
  expect(await refusal(refundToBalance(orders.as(ana), { paymentId: paid.paymentId }))).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(refundToBalance(orders.as(null), { paymentId: paid.paymentId }))).toMatchObject({
    code: 'unauthorized',
  })
  const before = await balanceOf(db, bruno.id)
  expect(await refundToBalance(orders.as(bruno), { paymentId: paid.paymentId })).toEqual({
    amountJpy: 1200,
    balanceJpy: before + 1200,
  })
  const told = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, bruno.id), eq(notifications.type, 'refund_to_balance')))
  expect(told).toHaveLength(1)
  expect(await refusal(refundToBalance(orders.as(bruno), { paymentId: paid.paymentId }))).toMatchObject({
    reason: 'refundNothingDue',
  })
})

test('a refund to the balance is never above what the invoice captured', async () => {
  const { db, pool, orders, topUp } = setup
  const quoted = await insertQuotedRequest(pool, { userId: bruno.id })
  await topUp(bruno.id, quoted.totalJpy)
  const paid = await payFromBalance(orders.as(bruno), { invoiceId: quoted.invoiceId })
  await db
    .insert(refunds)
    .values({ paymentId: paid.paymentId, amountJpy: quoted.totalJpy + 1, status: 'due', reason: 'too much' })
  const before = await balanceOf(db, bruno.id)
  expect(await refusal(refundToBalance(orders.as(admin), { paymentId: paid.paymentId }))).toMatchObject({
    code: 'conflict',
    reason: 'refundAboveCaptured',
  })
  expect(await balanceOf(db, bruno.id)).toBe(before)
})

test('ten payments at once from one balance: those that fit go through, the balance never goes below zero', async () => {
  const { db, pool, orders, topUp, ledger } = setup
  // Carla: a customer of her own for this test.
  const carla = { id: 'user-carla', role: 'user' as const }
  await insertPeople(db, [{ ...carla, name: 'Carla' }])
  const list: QuotedRequest[] = []
  for (let n = 0; n < 10; n += 1) list.push(await insertQuotedRequest(pool, { userId: carla.id }))
  const total = list[0]?.totalJpy ?? 0
  await topUp(carla.id, total * 3 + 100)
  const results = await Promise.allSettled(
    list.map((quote) =>
      payFromBalance(orders.as(carla), { invoiceId: quote.invoiceId, amountJpy: String(total) }),
    ),
  )
  const paid = results.filter((result) => result.status === 'fulfilled')
  const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))
  expect(paid).toHaveLength(3)
  expect(refused).toHaveLength(7)
  for (const reason of refused)
    expect(reason).toMatchObject({ code: 'conflict', details: { reason: 'balanceTooLow' } })
  const after = await ledger(carla.id)
  expect(after).toMatchObject({ balance: 100, sum: 100 })
  // Every running balance is the sum up to it, never negative.
  let running = 0
  for (const row of [...after.rows].sort((a, b) => a.id - b.id)) {
    running += row.amountJpy
    expect(row.balanceAfterJpy).toBe(running)
    expect(row.balanceAfterJpy).toBeGreaterThanOrEqual(0)
  }
  // Nothing half-written for the refused ones: no payment rows, their invoices open.
  const balancePayments = await db.select().from(payments).where(eq(payments.provider, 'balance'))
  expect(balancePayments.filter((p) => list.some((q) => q.invoiceId === p.invoiceId))).toHaveLength(3)

  // All at once with no amount: each takes what is left; the balance ends at exactly zero.
  await topUp(carla.id, total + 50)
  const open = (await db.select().from(invoices).where(eq(invoices.userId, carla.id))).filter(
    (i) => i.status === 'open',
  )
  await Promise.allSettled(open.map((invoice) => payFromBalance(orders.as(carla), { invoiceId: invoice.id })))
  const drained = await ledger(carla.id)
  expect(drained).toMatchObject({ balance: 0, sum: 0 })
})

test('a balance part of an invoice that expires unpaid goes back to the balance', async () => {
  const { db, pool, orders, topUp, ledger } = setup
  const quoted = await insertQuotedRequest(pool, { userId: bruno.id })
  await topUp(bruno.id, 1000)
  const before = await balanceOf(db, bruno.id)
  await payFromBalance(orders.as(bruno), { invoiceId: quoted.invoiceId, amountJpy: '1000' })
  expect(await balanceOf(db, bruno.id)).toBe(before - 1000)
  await db.transaction((tx) =>
    applyInvoiceEvent(tx, {
      invoiceId: quoted.invoiceId,
      event: 'expire',
      actor: { kind: 'system', id: null },
      at: new Date(),
    }),
  )
  const after = await ledger(bruno.id)
  expect(after.balance).toBe(before)
  expect(after.sum).toBe(after.balance)
  expect(after.rows.at(-1)).toMatchObject({
    kind: 'reversal',
    amountJpy: 1000,
    invoiceId: quoted.invoiceId,
    reason: 'invoice_expired',
  })
})

test('adjustments: admins only, with a reason, audited, never below zero', async () => {
  const { db, orders } = setup
  const input = {
    userId: bruno.id,
    direction: 'credit',
    amountJpy: '500',
    reason: 'Goodwill for a late parcel',
  }
  expect(await refusal(adjustBalance(orders.as(null), input))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(adjustBalance(orders.as(bruno), input))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(adjustBalance(orders.as(moderator), input))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(adjustBalance(orders.as(admin), { ...input, reason: '' }))).toMatchObject({
    code: 'invalid',
    fields: { reason: ['reasonRequired'] },
  })
  expect(await refusal(adjustBalance(orders.as(admin), { ...input, reason: 'a\nb' }))).toMatchObject({
    fields: { reason: ['invalidCharacters'] },
  })
  expect(await refusal(adjustBalance(orders.as(admin), { ...input, direction: 'steal' }))).toMatchObject({
    fields: { direction: ['directionRequired'] },
  })
  expect(await refusal(adjustBalance(orders.as(admin), { ...input, amountJpy: '2000000' }))).toMatchObject({
    fields: { amountJpy: ['adjustRange'] },
  })
  const before = await balanceOf(db, bruno.id)
  expect(await adjustBalance(orders.as(admin), input)).toEqual({ balanceJpy: before + 500 })
  expect(
    await refusal(
      adjustBalance(orders.as(admin), { ...input, direction: 'debit', amountJpy: String(before + 501) }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'balanceTooLow' })
  expect(
    await adjustBalance(orders.as(admin), { ...input, direction: 'debit', amountJpy: '500', reason: 'Fix' }),
  ).toEqual({
    balanceJpy: before,
  })
  const audits = await db.select().from(auditLog).where(eq(auditLog.kind, 'balance.adjust'))
  expect(audits.map((a) => a.after)).toEqual([
    { balanceJpy: before + 500, amountJpy: 500, reason: 'Goodwill for a late parcel' },
    { balanceJpy: before, amountJpy: -500, reason: 'Fix' },
  ])
})

test('the ledger is append-only and the balance row never negative, whatever writes to the database', async () => {
  const { pool } = setup
  await expect(pool.query(`UPDATE balance_movements SET amount_jpy = 1`)).rejects.toThrow(/append-only/)
  await expect(pool.query(`DELETE FROM balance_movements`)).rejects.toThrow(/append-only/)
  await expect(pool.query(`TRUNCATE balance_movements`)).rejects.toThrow(/append-only/)
  await expect(pool.query(`UPDATE balance_accounts SET balance_jpy = -1`)).rejects.toThrow(/never_negative/)
  await expect(
    pool.query(
      `INSERT INTO balance_movements (user_id, kind, amount_jpy, balance_after_jpy) VALUES ('user-ana', 'payment', 5, 5)`,
    ),
  ).rejects.toThrow(/sign_check/)
  await expect(
    pool.query(
      `INSERT INTO balance_movements (user_id, kind, amount_jpy, balance_after_jpy) VALUES ('user-ana', 'adjustment', 5, 5)`,
    ),
  ).rejects.toThrow(/adjustment_reason/)
})

test('the balance account row is kept equal to the ledger', async () => {
  const { db } = setup
  const accounts = await db.select().from(balanceAccounts)
  for (const account of accounts) {
    const rows = await db.select().from(balanceMovements).where(eq(balanceMovements.userId, account.userId))
    expect(rows.reduce((sum, row) => sum + row.amountJpy, 0)).toBe(account.balanceJpy)
  }
})

test('a lost parcel: the half refunded for its items goes to the balance, once, by an admin', async () => {
  const { db, orders, shipment, ledger } = setup
  const [paidRow] = await db.select().from(shipments).where(eq(shipments.id, shipment.id))
  expect(paidRow?.status).toBe('paid')
  const shipped = await shipShipment(orders.as(moderator), {
    id: shipment.id,
    version: paidRow?.version ?? 0,
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
  expect(resolved.refundJpy).toBeGreaterThan(0)
  const due = await db.select().from(refunds).where(like(refunds.reason, 'lost parcel%'))
  expect(due.reduce((sum, row) => sum + row.amountJpy, 0)).toBe(resolved.refundJpy)
  const before = (await ledger(ana.id)).balance
  for (const row of due) await refundToBalance(orders.as(admin), { paymentId: row.paymentId })
  const after = await ledger(ana.id)
  expect(after.balance).toBe(before + resolved.refundJpy)
  expect(after.sum).toBe(after.balance)
  for (const row of due) {
    expect(await refusal(refundToBalance(orders.as(admin), { paymentId: row.paymentId }))).toMatchObject({
      reason: 'refundNothingDue',
    })
  }
})

test('analytics count an invoice paid part from the balance once, at its total; top-ups are no revenue; a transfer must match what is left', async () => {
  const { db, pool, orders, topUp } = setup
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date())
  const period = parsePeriod({ preset: 'custom', from: today, to: today })
  const gross = async () => (await getAnalytics({ db, actor: admin }, period)).revenue
  const before = await gross()
  await topUp(bruno.id, 50_000)
  expect(await gross()).toEqual(before)
  const quoted = await insertQuotedRequest(pool, { userId: bruno.id })
  await payFromBalance(orders.as(bruno), { invoiceId: quoted.invoiceId, amountJpy: '3000' })
  expect(await gross()).toEqual(before)
  // The bank transfer for the rest: the whole total is refused, what is left is accepted.
  const [open] = await db.select().from(invoices).where(eq(invoices.id, quoted.invoiceId))
  expect(
    await refusal(
      recordManualPayment(orders.as(admin), {
        invoiceId: quoted.invoiceId,
        version: open?.version ?? 0,
        amountJpy: String(quoted.totalJpy),
        reference: 'BANK-REST-1',
      }),
    ),
  ).toMatchObject({ code: 'invalid', fields: { amountJpy: expect.any(Array) } })
  await recordManualPayment(orders.as(admin), {
    invoiceId: quoted.invoiceId,
    version: open?.version ?? 0,
    amountJpy: String(quoted.totalJpy - 3000),
    reference: 'BANK-REST-1',
  })
  const after = await gross()
  expect(after.invoices).toBe(before.invoices + 1)
  expect(after.grossJpy).toBe(before.grossJpy + quoted.totalJpy)
})
