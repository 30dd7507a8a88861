import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import type { Actor } from '#core/shared/service-context.ts'
import { auditLog, notifications, payments, refunds } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import {
  type PaymentStandIn,
  startPaymentStandIn,
  submitPayPage,
} from '#tests/support/payment-stand-in/server.ts'
import { refusal } from '#tests/support/refusal.ts'
import { insertPeople } from '#tests/support/warehouse-fixtures.ts'
import { listMyMoney } from './money-history.ts'
import { confirmReturn, startCheckout } from './payment-service.ts'
import { paymentProvidersFromEnv } from './provider.ts'
import { confirmPendingRefunds } from './refund-confirmation.ts'
import { markRefundDone, recordManualPayment, refundThroughProvider } from './staff-payments.ts'

// Refunds through the payment port (ADR 030): what is due on a PayPal or Stripe payment goes back
// through the provider's API, once, even when two admins click at once; a bank transfer is
// refunded by hand; a provider that refuses or is down records nothing.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

let standIn: PaymentStandIn
let setup: Awaited<ReturnType<typeof start>>

async function start() {
  const { db, pool } = await createTestDatabase()
  const providers = paymentProvidersFromEnv({ ...standIn.env, PAYMENT_PROVIDER_TIMEOUT_SECONDS: '1' })
  const orders = await createOrderTestDeps(db, pool, { payments: providers })
  const system = {
    db,
    jobs: orders.jobs,
    settings: orders.settings,
    payments: providers,
    appUrl: orders.appUrl,
  }
  await insertPeople(db, [
    { ...ana, name: 'Ana' },
    { ...bruno, name: 'Bruno' },
    { ...admin, name: 'Admin' },
    { ...moderator, name: 'Mod' },
  ])
  /** A quote paid through `provider`, with `dueJpy` of it due back (as an unavailable item leaves it). */
  const paidWithDue = async (provider: 'paypal' | 'stripe', dueJpy: number) => {
    const quoted = await insertQuotedRequest(pool, { userId: ana.id })
    const checkout = await startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider })
    await submitPayPage(checkout.payUrl, 'Approve payment')
    expect((await confirmReturn(system, { provider, paymentId: checkout.paymentId })).status).toBe(
      'succeeded',
    )
    await db
      .insert(refunds)
      .values({ paymentId: checkout.paymentId, amountJpy: dueJpy, status: 'due', reason: 'test' })
    const [row] = await db.select().from(payments).where(eq(payments.id, checkout.paymentId))
    return {
      paymentId: checkout.paymentId,
      version: row?.version ?? 0,
      captureRef: row?.captureRef ?? '',
      requestNumber: quoted.requestNumber,
    }
  }
  return { db, pool, orders, system, paidWithDue }
}

beforeAll(async () => {
  standIn = await startPaymentStandIn()
  setup = await start()
})
afterAll(() => standIn.close())
beforeEach(() => standIn.resetControls())

for (const provider of ['paypal', 'stripe'] as const) {
  test(`${provider}: the refund due goes back through the provider once, recorded with its id`, async () => {
    const { db, orders, paidWithDue } = setup
    const paid = await paidWithDue(provider, 1870)
    const input = { paymentId: paid.paymentId, version: paid.version, confirm: 'yes' }
    expect(await refusal(refundThroughProvider(orders.as(moderator), input))).toMatchObject({
      code: 'forbidden',
    })
    // Money leaves at once: never without the admin's confirmation (docs/decisions/037).
    const sentBefore = standIn.refunds.length
    for (const confirm of [undefined, '', 'no', 'on']) {
      expect(await refusal(refundThroughProvider(orders.as(admin), { ...input, confirm }))).toMatchObject({
        code: 'invalid',
        reason: 'actionNotConfirmed',
        fields: { confirm: ['confirmRequired'] },
      })
    }
    expect(standIn.refunds.length).toBe(sentBefore)
    expect((await db.select().from(refunds).where(eq(refunds.paymentId, paid.paymentId))).length).toBe(1)
    expect(await refusal(refundThroughProvider(orders.as(bruno), input))).toMatchObject({ code: 'not_found' })
    expect(await refusal(refundThroughProvider(orders.as(admin), { ...input, version: 99 }))).toMatchObject({
      reason: 'paymentChanged',
    })
    const before = standIn.refunds.length
    // Two admins at once: one refund at the provider, one row here. The second click finds the
    // payment claimed by the first (changed), or gets the same refund back.
    const results = await Promise.allSettled([
      refundThroughProvider(orders.as(admin), input),
      refundThroughProvider(orders.as(admin), input),
    ])
    const done = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
    const first = done[0]
    if (!first) throw new Error('no refund went through')
    expect(first).toMatchObject({ amountJpy: 1870, status: 'succeeded' })
    for (const result of results) {
      if (result.status === 'fulfilled') expect(result.value.refundRef).toBe(first.refundRef)
      else expect(result.reason).toMatchObject({ code: 'conflict', details: { reason: 'paymentChanged' } })
    }
    expect(standIn.refunds.slice(before)).toEqual([
      { provider, id: first.refundRef, captureRef: paid.captureRef, amountJpy: 1870, status: 'succeeded' },
    ])
    const rows = await db.select().from(refunds).where(eq(refunds.paymentId, paid.paymentId))
    expect(rows.map((row) => [row.status, row.amountJpy, row.providerRef])).toEqual([
      ['due', 1870, null],
      ['done', 1870, first.refundRef],
    ])
    expect((await db.select().from(auditLog).where(eq(auditLog.subjectId, paid.paymentId))).length).toBe(1)
    // Nothing more is due: refused, nothing sent.
    const [now] = await db.select().from(payments).where(eq(payments.id, paid.paymentId))
    expect(
      await refusal(
        refundThroughProvider(orders.as(admin), {
          paymentId: paid.paymentId,
          version: now?.version,
          confirm: 'yes',
        }),
      ),
    ).toMatchObject({ reason: 'refundNothingDue' })
    expect(standIn.refunds.length).toBe(before + 1)
  })
}

test('a provider down or refusing records nothing; a bank transfer is refunded by hand', async () => {
  const { db, pool, orders, paidWithDue } = setup
  const paid = await paidWithDue('paypal', 500)
  standIn.down = 'error'
  expect(
    await refusal(
      refundThroughProvider(orders.as(admin), {
        paymentId: paid.paymentId,
        version: paid.version,
        confirm: 'yes',
      }),
    ),
  ).toMatchObject({ code: 'upstream_failed', reason: 'paymentProviderDown' })
  standIn.down = false
  expect((await db.select().from(refunds).where(eq(refunds.paymentId, paid.paymentId))).length).toBe(1)
  // The attempt moved the payment on (the page reloads to try again) and let go of its hold.
  const [afterDown] = await db.select().from(payments).where(eq(payments.id, paid.paymentId))
  expect(afterDown).toMatchObject({ version: paid.version + 1, refundingAt: null })
  // More than was captured: the provider refuses.
  await db
    .insert(refunds)
    .values({ paymentId: paid.paymentId, amountJpy: 10_000_000, status: 'due', reason: 'test' })
  expect(
    await refusal(
      refundThroughProvider(orders.as(admin), {
        paymentId: paid.paymentId,
        version: paid.version + 1,
        confirm: 'yes',
      }),
    ),
  ).toMatchObject({ code: 'upstream_failed', reason: 'paymentRefused' })
  expect((await db.select().from(refunds).where(eq(refunds.paymentId, paid.paymentId))).length).toBe(2)

  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const manual = await recordManualPayment(orders.as(admin), {
    invoiceId: quoted.invoiceId,
    version: 0,
    amountJpy: String(quoted.totalJpy),
    reference: 'BANK 77',
  })
  await db
    .insert(refunds)
    .values({ paymentId: manual.paymentId, amountJpy: 100, status: 'due', reason: 'test' })
  expect(
    await refusal(
      refundThroughProvider(orders.as(admin), { paymentId: manual.paymentId, version: 0, confirm: 'yes' }),
    ),
  ).toMatchObject({ reason: 'refundManualOnly' })
})

test('"refund through the provider" and "mark refund done" at the same moment: one of them, never both', async () => {
  const { db, orders, paidWithDue } = setup
  for (const provider of ['paypal', 'stripe', 'paypal', 'stripe', 'paypal', 'stripe'] as const) {
    const paid = await paidWithDue(provider, 2420)
    const input = { paymentId: paid.paymentId, version: paid.version }
    const before = standIn.refunds.length
    const [throughProvider, byHand] = await Promise.allSettled([
      refundThroughProvider(orders.as(admin), { ...input, confirm: 'yes' }),
      markRefundDone(orders.as(admin), { ...input, reference: 'BANK REFUND 1' }),
    ])
    const outcomes = [throughProvider.status, byHand.status]
    expect(
      outcomes.filter((status) => status === 'fulfilled'),
      provider,
    ).toHaveLength(1)
    for (const result of [throughProvider, byHand]) {
      if (result.status === 'rejected') {
        expect(['paymentChanged', 'refundInProgress']).toContain(result.reason?.details?.reason)
      }
    }
    // Money went back once: at the provider only when its action won.
    expect(standIn.refunds.length - before).toBe(throughProvider.status === 'fulfilled' ? 1 : 0)
    const rows = await db.select().from(refunds).where(eq(refunds.paymentId, paid.paymentId))
    const done = rows.filter((row) => row.status === 'done').reduce((sum, row) => sum + row.amountJpy, 0)
    expect(done).toBe(2420)
  }
})

test('a refund under way holds the payment; after a crash the hold lapses and the same refund is recorded once', async () => {
  const { db, orders, paidWithDue } = setup
  const paid = await paidWithDue('paypal', 900)
  // As if the process died between the provider's refund and our record: claimed, nothing recorded.
  const claimedAt = new Date()
  await db
    .update(payments)
    .set({ refundingAt: claimedAt, version: paid.version + 1 })
    .where(eq(payments.id, paid.paymentId))
  const input = { paymentId: paid.paymentId, version: paid.version + 1, confirm: 'yes' }
  expect(await refusal(markRefundDone(orders.as(admin), { ...input, reference: 'X' }))).toMatchObject({
    reason: 'refundInProgress',
  })
  expect(await refusal(refundThroughProvider(orders.as(admin), input))).toMatchObject({
    reason: 'refundInProgress',
  })
  // Five minutes on, the hold is gone: asked again, the provider's idempotency gives the same refund.
  await db
    .update(payments)
    .set({ refundingAt: new Date(claimedAt.getTime() - 6 * 60_000) })
    .where(eq(payments.id, paid.paymentId))
  const before = standIn.refunds.length
  const first = await refundThroughProvider(orders.as(admin), input)
  expect(first.amountJpy).toBe(900)
  expect(standIn.refunds.length).toBe(before + 1)
  const [row] = await db.select().from(payments).where(eq(payments.id, paid.paymentId))
  expect(row?.refundingAt).toBeNull()
})

test('the database refuses more done than due on a payment, whatever the code does', async () => {
  const { db, paidWithDue } = setup
  const paid = await paidWithDue('stripe', 2420)
  await db
    .insert(refunds)
    .values({ paymentId: paid.paymentId, amountJpy: 2420, status: 'done', reason: 'bank' })
  await expect(
    db.insert(refunds).values({ paymentId: paid.paymentId, amountJpy: 1, status: 'done', reason: 'bank' }),
  ).rejects.toMatchObject({ cause: { code: '23514', constraint: 'refunds_within_due' } })
  // Due rows are never refused: more may become due later (a lost parcel).
  await db
    .insert(refunds)
    .values({ paymentId: paid.paymentId, amountJpy: 100, status: 'due', reason: 'claim' })
  await db
    .insert(refunds)
    .values({ paymentId: paid.paymentId, amountJpy: 100, status: 'done', reason: 'bank' })
})

for (const provider of ['paypal', 'stripe'] as const) {
  test(`${provider}: a refund still processing is confirmed to the customer when the provider says it went through, once`, async () => {
    const { db, orders, system, paidWithDue } = setup
    const paid = await paidWithDue(provider, 900)
    standIn.refundStatus = 'pending'
    const refund = await refundThroughProvider(orders.as(admin), {
      paymentId: paid.paymentId,
      version: paid.version,
      confirm: 'yes',
    })
    expect(refund.status).toBe('pending')
    const told = async (type: string) =>
      (await db.select().from(notifications).where(eq(notifications.type, type))).filter(
        (row) => row.params.number === paid.requestNumber,
      )
    // Sent: the customer hears it is on its way.
    expect(await told('refund_sent')).toHaveLength(1)
    // Still processing: nothing more.
    expect(await confirmPendingRefunds(system)).toMatchObject({ confirmed: 0, pending: 1 })
    expect(await told('refund_confirmed')).toHaveLength(0)
    standIn.settleRefund(refund.refundRef, 'succeeded')
    expect(await confirmPendingRefunds(system)).toMatchObject({ confirmed: 1 })
    expect((await told('refund_confirmed')).map((notice) => notice.link)).toEqual([
      '/user-dashboard/payments',
    ])
    // Asked again: told once.
    expect(await confirmPendingRefunds(system)).toMatchObject({ confirmed: 0, pending: 0 })
    expect(await told('refund_confirmed')).toHaveLength(1)
  })
}

test('a refund the provider later reports failed is owed again: staff told, the customer sees it on its way', async () => {
  const { db, pool, orders, system, paidWithDue } = setup
  const paid = await paidWithDue('stripe', 650)
  standIn.refundStatus = 'pending'
  const refund = await refundThroughProvider(orders.as(admin), {
    paymentId: paid.paymentId,
    version: paid.version,
    confirm: 'yes',
  })
  standIn.settleRefund(refund.refundRef, 'failed')
  const staffMails = await countJobs(pool, 'notification.staff-email')
  expect(await confirmPendingRefunds(system)).toMatchObject({ failed: 1 })
  expect(await countJobs(pool, 'notification.staff-email')).toBe(staffMails + 1)
  const rows = await db.select().from(refunds).where(eq(refunds.paymentId, paid.paymentId))
  expect(rows.map((one) => [one.status, one.amountJpy, one.reason])).toEqual([
    ['due', 650, 'test'],
    ['done', 650, expect.stringContaining(refund.refundRef)],
    ['due', 650, 'refund_failed'],
  ])
  // Asked again: nothing more.
  expect(await confirmPendingRefunds(system)).toMatchObject({ failed: 0, pending: 0 })
  // The customer's money: the refund is on its way again (not sent twice, not owed twice).
  const money = await listMyMoney(orders.as(ana))
  const mine = money.entries.filter((entry) => entry.kind === 'refund' && entry.paymentId === paid.paymentId)
  expect(mine.map((entry) => entry.kind === 'refund' && [entry.amountJpy, entry.sentAt])).toEqual([
    [650, null],
  ])
  // An admin sends it again: by hand this time.
  const [now] = await db.select().from(payments).where(eq(payments.id, paid.paymentId))
  expect(
    await markRefundDone(orders.as(admin), {
      paymentId: paid.paymentId,
      version: now?.version,
      reference: 'BANK-2',
    }),
  ).toEqual({ amountJpy: 650 })
})
