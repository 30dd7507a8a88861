import { eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { isAppError } from '#core/shared/errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import {
  invoices,
  notifications,
  orderEvents,
  payments,
  purchaseRequests,
  refunds,
  requestItems,
  users,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { countJobs } from '#tests/support/jobs.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import { markRefundDone, recordManualPayment, resolveHeldPayment } from './staff-payments.ts'

// Bank transfers (the manual method) and refunds recorded by hand: admins only, the exact
// amount, once.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const admin2: Actor = { id: 'user-admin-2', role: 'admin' }
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
    { ...base, id: admin2.id, name: 'Admin 2', email: 'admin2@example.com', role: 'admin' },
    { ...base, id: moderator.id, name: 'Mod', email: 'mod@example.com', role: 'moderator' },
  ])
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const snapshot = async () => ({
    payments: await db.select().from(payments),
    refunds: await db.select().from(refunds),
    invoice: (await db.select().from(invoices).where(eq(invoices.id, quoted.invoiceId)))[0],
    request: (await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, quoted.requestId)))[0],
    events: (await db.select().from(orderEvents)).length,
    notifications: (await db.select().from(notifications)).length,
  })
  return { db, pool, orders, quoted, snapshot }
}

test('an admin records a bank transfer: payment, invoice and request paid, items to buy, history, customer told', async () => {
  const { db, pool, orders, quoted, snapshot } = await setup()
  const { paymentId } = await recordManualPayment(orders.as(admin), {
    invoiceId: quoted.invoiceId,
    version: 0,
    amountJpy: '¥7,400',
    reference: '  MUFG 2026-11-24 ANA PEREZ ',
    note: 'Arrived on Monday',
  })
  const after = await snapshot()
  expect(after.payments).toEqual([
    expect.objectContaining({
      id: paymentId,
      provider: 'manual',
      status: 'succeeded',
      providerRef: null,
      captureRef: 'MUFG 2026-11-24 ANA PEREZ',
      requestedJpy: 7400,
      amount: 7400,
      currency: 'JPY',
      recordedBy: admin.id,
      note: 'Arrived on Monday',
    }),
  ])
  expect(after.invoice).toMatchObject({ status: 'paid', version: 1 })
  expect(after.invoice?.paidAt).toBeInstanceOf(Date)
  expect(after.request).toMatchObject({ status: 'paid', version: 1 })
  expect(after.request?.paidAt).toBeInstanceOf(Date)
  const items = await db.select({ status: requestItems.status }).from(requestItems)
  expect(items.map((item) => item.status)).toEqual(['to_buy'])
  const history = await db
    .select({
      type: orderEvents.entityType,
      event: orderEvents.event,
      actor: orderEvents.actorKind,
      by: orderEvents.actorId,
    })
    .from(orderEvents)
    .where(sql`${orderEvents.event} in ('record', 'pay')`)
    .orderBy(orderEvents.id)
  expect(history).toEqual([
    { type: 'payment', event: 'record', actor: 'staff', by: admin.id },
    { type: 'invoice', event: 'pay', actor: 'staff', by: admin.id },
    { type: 'purchase_request', event: 'pay', actor: 'staff', by: admin.id },
  ])
  // The customer is told; staff are not (the admin who recorded it knows: ADR 036).
  const told = await db.select().from(notifications)
  expect(told).toEqual([
    expect.objectContaining({
      userId: ana.id,
      audience: 'customer',
      type: 'payment_received',
      params: { number: quoted.requestNumber, amountJpy: 7400 },
      link: `/user-dashboard/requests/${quoted.requestId}`,
    }),
  ])
  expect(await countJobs(pool, 'notification.email')).toBe(1)
  expect(await countJobs(pool, 'notification.staff-email')).toBe(0)
})

test('who may record: anonymous 401, another customer 404 as a missing invoice, the owner and moderators 403, admins only; nothing written', async () => {
  const { orders, quoted, snapshot } = await setup()
  const before = await snapshot()
  const input = { invoiceId: quoted.invoiceId, version: 0, amountJpy: '7400', reference: 'REF-1' }
  expect(await refusal(recordManualPayment(orders.as(null), input))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(recordManualPayment(orders.as(bruno), input))).toMatchObject({
    code: 'not_found',
    reason: 'invoiceNotFound',
  })
  expect(
    await refusal(
      recordManualPayment(orders.as(bruno), { ...input, invoiceId: '00000000-0000-4000-8000-000000000000' }),
    ),
  ).toMatchObject({ code: 'not_found', reason: 'invoiceNotFound' })
  expect(await refusal(recordManualPayment(orders.as(ana), input))).toMatchObject({
    code: 'forbidden',
    reason: 'paymentAdminsOnly',
  })
  expect(await refusal(recordManualPayment(orders.as(moderator), input))).toMatchObject({
    code: 'forbidden',
    reason: 'paymentAdminsOnly',
  })
  expect(await snapshot()).toEqual(before)
  await recordManualPayment(orders.as(admin), input)
  expect((await snapshot()).payments).toHaveLength(1)
})

test('bad input: field errors, nothing written; an amount other than the total is refused, never held or paid', async () => {
  const { orders, quoted, snapshot } = await setup()
  const before = await snapshot()
  const good = { invoiceId: quoted.invoiceId, version: 0, amountJpy: '7400', reference: 'REF-1' }
  const cases: [Record<string, unknown>, Record<string, string[]>][] = [
    [{ amountJpy: '' }, { amountJpy: ['amountRequired'] }],
    [{ amountJpy: '7400.5' }, { amountJpy: ['amountWhole'] }],
    [{ amountJpy: '-7400' }, { amountJpy: ['amountWhole'] }],
    [{ amountJpy: '0' }, { amountJpy: ['amountWhole'] }],
    [{ amountJpy: 'seven thousand' }, { amountJpy: ['amountWhole'] }],
    [{ amountJpy: '1,2,3' }, { amountJpy: ['amountWhole'] }],
    [{ reference: '' }, { reference: ['referenceRequired'] }],
    [{ reference: '   ' }, { reference: ['referenceRequired'] }],
    [{ reference: 'x'.repeat(101) }, { reference: ['referenceTooLong'] }],
    [{ reference: 'two\nlines' }, { reference: ['invalidCharacters'] }],
    [{ reference: 42 }, { reference: ['referenceRequired'] }],
    [{ note: 'n'.repeat(2001) }, { note: ['noteTooLong'] }],
    [{ note: 'bell\u0007' }, { note: ['invalidCharacters'] }],
  ]
  for (const [change, fields] of cases) {
    expect(await refusal(recordManualPayment(orders.as(admin), { ...good, ...change } as never))).toEqual({
      code: 'invalid',
      reason: 'paymentInvalid',
      fields,
    })
  }
  for (const amountJpy of ['7399', '7401', '74000', '740']) {
    expect(await refusal(recordManualPayment(orders.as(admin), { ...good, amountJpy }))).toEqual({
      code: 'invalid',
      reason: 'paymentAmountMismatch',
      fields: { amountJpy: ['amountMismatch'] },
    })
  }
  expect(
    await refusal(recordManualPayment(orders.as(admin), { ...good, invoiceId: 'not-a-uuid' })),
  ).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(recordManualPayment(orders.as(admin), { ...good, version: 'x' }))).toMatchObject({
    code: 'invalid',
  })
  expect(await snapshot()).toEqual(before)
})

test('double submit and two admins at once: one payment; the page that saw an old version is told it changed', async () => {
  const { orders, quoted, snapshot } = await setup()
  const input = { invoiceId: quoted.invoiceId, version: 0, amountJpy: '7400', reference: 'REF-1' }
  const results = await Promise.allSettled([
    recordManualPayment(orders.as(admin), input),
    recordManualPayment(orders.as(admin), input),
    recordManualPayment(orders.as(admin2), { ...input, reference: 'REF-2' }),
  ])
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
  for (const result of results.filter((result) => result.status === 'rejected')) {
    const error = (result as PromiseRejectedResult).reason
    expect(isAppError(error) && error.code).toBe('conflict')
    expect(['invoicePaid', 'paymentReferenceUsed']).toContain(error.details.reason)
  }
  const after = await snapshot()
  expect(after.payments).toHaveLength(1)
  expect(after.invoice).toMatchObject({ status: 'paid', version: 1 })
  expect(after.request).toMatchObject({ status: 'paid', version: 1 })
  expect(after.notifications).toBe(1)
})

test('compare-and-set: a form from before the invoice changed is refused; a reference already recorded is refused', async () => {
  const { db, pool, orders, quoted, snapshot } = await setup()
  await db.update(invoices).set({ version: 3 }).where(eq(invoices.id, quoted.invoiceId))
  const input = { invoiceId: quoted.invoiceId, version: 0, amountJpy: '7400', reference: 'REF-1' }
  expect(await refusal(recordManualPayment(orders.as(admin), input))).toMatchObject({
    code: 'conflict',
    reason: 'invoiceChanged',
  })
  await recordManualPayment(orders.as(admin), { ...input, version: 3 })
  // Another customer's invoice, paid with a transfer whose reference was already used.
  const other = await insertQuotedRequest(pool, { userId: bruno.id })
  expect(
    await refusal(
      recordManualPayment(orders.as(admin), { ...input, invoiceId: other.invoiceId, version: 0 }),
    ),
  ).toMatchObject({
    code: 'conflict',
    reason: 'paymentReferenceUsed',
    fields: { reference: ['referenceUsed'] },
  })
  expect((await snapshot()).payments).toHaveLength(1)
})

test('an invoice that is not payable: void, expired, or its request cancelled', async () => {
  const { db, pool, orders, snapshot } = await setup()
  const input = (invoiceId: string) => ({
    invoiceId,
    version: 0,
    amountJpy: '7400',
    reference: `R-${invoiceId}`,
  })
  const voided = await insertQuotedRequest(pool, { userId: ana.id })
  await db.update(invoices).set({ status: 'void' }).where(eq(invoices.id, voided.invoiceId))
  const expired = await insertQuotedRequest(pool, { userId: ana.id })
  await db.update(invoices).set({ status: 'expired' }).where(eq(invoices.id, expired.invoiceId))
  const cancelled = await insertQuotedRequest(pool, { userId: ana.id })
  await db
    .update(purchaseRequests)
    .set({ status: 'cancelled' })
    .where(eq(purchaseRequests.id, cancelled.requestId))
  const before = await snapshot()
  for (const invoiceId of [voided.invoiceId, expired.invoiceId, cancelled.invoiceId]) {
    expect(
      await refusal(recordManualPayment(orders.as(admin), { ...input(invoiceId), version: 0 })),
    ).toMatchObject({ code: 'conflict', reason: 'invoiceNotPayable' })
  }
  expect(await snapshot()).toEqual(before)
})

test('refund done: admins only, once for what is due, append-only rows', async () => {
  const { db, orders, quoted } = await setup()
  // A duplicate payment with its refund due, as settling writes it.
  const [duplicate] = await db
    .insert(payments)
    .values({
      invoiceId: quoted.invoiceId,
      provider: 'stripe',
      providerRef: 'cs_test_dup',
      captureRef: 'pi_dup',
      status: 'duplicate',
      requestedJpy: 7400,
      amount: 7400,
      currency: 'JPY',
    })
    .returning()
  if (!duplicate) throw new Error('no payment')
  await db
    .insert(refunds)
    .values({ paymentId: duplicate.id, amountJpy: 7400, status: 'due', reason: 'duplicate_payment' })
  const input = { paymentId: duplicate.id, version: 0, reference: 'Stripe re_123' }
  expect(await refusal(markRefundDone(orders.as(null), input))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(markRefundDone(orders.as(bruno), input))).toMatchObject({ code: 'not_found' })
  expect(await refusal(markRefundDone(orders.as(ana), input))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(markRefundDone(orders.as(moderator), input))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(markRefundDone(orders.as(admin), { ...input, reference: '' }))).toMatchObject({
    code: 'invalid',
    fields: { reference: ['referenceRequired'] },
  })
  expect(await db.select().from(refunds)).toHaveLength(1)

  const results = await Promise.allSettled([
    markRefundDone(orders.as(admin), input),
    markRefundDone(orders.as(admin2), input),
  ])
  expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
  expect(await refusal(markRefundDone(orders.as(admin), { ...input, version: 1 }))).toMatchObject({
    code: 'conflict',
    reason: 'refundNothingDue',
  })
  const rows = await db.select().from(refunds).orderBy(refunds.createdAt)
  expect(rows.map(({ status, amountJpy, reason }) => ({ status, amountJpy, reason }))).toEqual([
    { status: 'due', amountJpy: 7400, reason: 'duplicate_payment' },
    { status: 'done', amountJpy: 7400, reason: 'Stripe re_123' },
  ])
  // Refunds and a payment's facts cannot be edited.
  await expect(db.update(refunds).set({ amountJpy: 1 })).rejects.toThrow()
  await expect(db.update(payments).set({ amount: 1 }).where(eq(payments.id, duplicate.id))).rejects.toThrow()
})

// ---------------------------------------------------------------------------------------------
// Held payments: an admin accepts one as the quote's payment, or refunds it whole.
// ---------------------------------------------------------------------------------------------

/** A PayPal payment the provider reported as taking `amount` `currency`, held for review. */
async function insertHeld(
  pool: Awaited<ReturnType<typeof setup>>['pool'],
  invoiceId: string,
  requestedJpy: number,
  { amount, currency = 'JPY' }: { amount: number; currency?: string },
) {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO payments (invoice_id, provider, provider_ref, capture_ref, status, requested_jpy, amount, currency, settled_at)
     VALUES ($1, 'paypal', $2, $3, 'held', $4, $5, $6, now()) RETURNING id`,
    [
      invoiceId,
      `ORDER-${amount}-${currency}`,
      `CAPTURE-${amount}-${currency}`,
      requestedJpy,
      amount,
      currency,
    ],
  )
  return rows[0]?.id ?? ''
}

const auditRows = async (pool: Awaited<ReturnType<typeof setup>>['pool']) =>
  (
    await pool.query(
      'SELECT kind, actor_id, subject_type, subject_id, before, after FROM audit_log ORDER BY id',
    )
  ).rows

test('accepting a held payment of more than the quote pays it, makes the excess a refund due, and is audited; a second click applies nothing', async () => {
  const { db, pool, orders, quoted } = await setup()
  const paymentId = await insertHeld(pool, quoted.invoiceId, quoted.totalJpy, {
    amount: quoted.totalJpy + 600,
  })
  const input = { paymentId, version: 0, resolution: 'accept', note: 'The customer added a tip by mistake' }
  const [first, second] = await Promise.allSettled([
    resolveHeldPayment(orders.as(admin), input),
    resolveHeldPayment(orders.as(admin2), input),
  ])
  const results = [first, second]
  expect(results.filter((result) => result.status === 'fulfilled').map((result) => result.value)).toEqual([
    { status: 'succeeded', refundDueJpy: 600 },
  ])
  const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult
  expect(isAppError(refused.reason, 'conflict')).toBe(true)

  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId))
  expect(payment).toMatchObject({ status: 'succeeded', version: 1, amount: quoted.totalJpy + 600 })
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, quoted.invoiceId))
  expect(invoice).toMatchObject({ status: 'paid' })
  const [request] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, quoted.requestId))
  expect(request).toMatchObject({ status: 'paid' })
  const items = await db.select().from(requestItems).where(eq(requestItems.requestId, quoted.requestId))
  expect(items.map((item) => item.status)).toEqual(items.map(() => 'to_buy'))
  expect(
    await db
      .select({ amountJpy: refunds.amountJpy, status: refunds.status, reason: refunds.reason })
      .from(refunds),
  ).toEqual([{ amountJpy: 600, status: 'due', reason: 'overpayment' }])
  const told = await db.select().from(notifications).where(eq(notifications.userId, ana.id))
  expect(told.map((row) => row.type)).toEqual(['payment_received'])
  const history = await db.select().from(orderEvents).where(eq(orderEvents.entityId, paymentId))
  expect(
    history.map(({ event, fromStatus, toStatus, actorId, note }) => ({
      event,
      fromStatus,
      toStatus,
      actorId,
      note,
    })),
  ).toEqual([
    {
      event: 'accept',
      fromStatus: 'held',
      toStatus: 'succeeded',
      actorId: expect.stringMatching(/^user-admin/),
      note: input.note,
    },
  ])
  expect(await auditRows(pool)).toEqual([
    {
      kind: 'payment.accept',
      actor_id: expect.stringMatching(/^user-admin/),
      subject_type: 'payment',
      subject_id: paymentId,
      before: { status: 'held' },
      after: {
        status: 'succeeded',
        request: quoted.requestNumber,
        invoice: quoted.invoiceNumber,
        refundDueJpy: 600,
        note: input.note,
      },
    },
  ])

  // The excess goes back like any refund due: marked done once, audited.
  expect(
    await markRefundDone(orders.as(admin), { paymentId, version: 1, reference: 'PAYPAL-REFUND-9' }),
  ).toEqual({
    amountJpy: 600,
  })
  expect((await auditRows(pool)).at(-1)).toMatchObject({
    kind: 'payment.refund_done',
    before: { refundDueJpy: 600 },
    after: { refundDoneJpy: 600, reference: 'PAYPAL-REFUND-9' },
  })
})

test('a held payment that cannot pay the quote (short, or in another currency) is refused for accept, nothing written; refunding returns it whole and tells the customer', async () => {
  const { db, pool, orders, quoted, snapshot } = await setup()
  const short = await insertHeld(pool, quoted.invoiceId, quoted.totalJpy, { amount: quoted.totalJpy - 1 })
  const dollars = await insertHeld(pool, quoted.invoiceId, quoted.totalJpy, { amount: 50, currency: 'USD' })
  const before = await snapshot()
  for (const paymentId of [short, dollars]) {
    expect(
      await refusal(resolveHeldPayment(orders.as(admin), { paymentId, version: 0, resolution: 'accept' })),
    ).toMatchObject({
      code: 'conflict',
      reason: 'heldCannotPay',
    })
  }
  expect(await snapshot()).toEqual(before)
  expect(await auditRows(pool)).toEqual([])

  expect(
    await resolveHeldPayment(orders.as(admin), { paymentId: short, version: 0, resolution: 'refund' }),
  ).toEqual({
    status: 'refunded',
    refundDueJpy: quoted.totalJpy - 1,
  })
  // Another currency: what was asked in yen is what goes back (the provider refunds its capture).
  expect(
    await resolveHeldPayment(orders.as(admin), { paymentId: dollars, version: 0, resolution: 'refund' }),
  ).toEqual({
    status: 'refunded',
    refundDueJpy: quoted.totalJpy,
  })
  const after = await snapshot()
  expect(after.invoice).toMatchObject({ status: 'open' })
  expect(after.request).toMatchObject({ status: 'quoted' })
  expect(after.refunds.map(({ amountJpy, status, reason }) => ({ amountJpy, status, reason }))).toEqual([
    { amountJpy: quoted.totalJpy - 1, status: 'due', reason: 'held_payment' },
    { amountJpy: quoted.totalJpy, status: 'due', reason: 'held_payment' },
  ])
  const told = await db.select().from(notifications).where(eq(notifications.type, 'payment_refunding'))
  expect(told.map((row) => row.params)).toEqual([
    { number: quoted.requestNumber, amountJpy: quoted.totalJpy - 1 },
    { number: quoted.requestNumber, amountJpy: quoted.totalJpy },
  ])
  expect((await auditRows(pool)).map((row) => row.kind)).toEqual(['payment.refund', 'payment.refund'])
  // Refunded is final: neither resolution applies again.
  expect(
    await refusal(
      resolveHeldPayment(orders.as(admin), { paymentId: short, version: 1, resolution: 'accept' }),
    ),
  ).toMatchObject({
    code: 'conflict',
    reason: 'paymentNotHeld',
  })
})

test('resolving a held payment: admins only, the version the page showed, a known resolution; refusals write nothing', async () => {
  const { pool, orders, quoted, snapshot } = await setup()
  const paymentId = await insertHeld(pool, quoted.invoiceId, quoted.totalJpy, { amount: quoted.totalJpy })
  const input = { paymentId, version: 0, resolution: 'accept' }
  const before = await snapshot()
  expect(await refusal(resolveHeldPayment(orders.as(null), input))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(resolveHeldPayment(orders.as(bruno), input))).toMatchObject({ code: 'not_found' })
  expect(await refusal(resolveHeldPayment(orders.as(ana), input))).toMatchObject({
    code: 'forbidden',
    reason: 'paymentAdminsOnly',
  })
  expect(await refusal(resolveHeldPayment(orders.as(moderator), input))).toMatchObject({
    code: 'forbidden',
    reason: 'paymentAdminsOnly',
  })
  expect(await refusal(resolveHeldPayment(orders.as(admin), { ...input, version: 3 }))).toMatchObject({
    code: 'conflict',
    reason: 'paymentChanged',
  })
  for (const resolution of ['', 'pay', '<script>', 42]) {
    expect(await refusal(resolveHeldPayment(orders.as(admin), { ...input, resolution }))).toMatchObject({
      code: 'invalid',
      fields: { resolution: ['resolutionUnknown'] },
    })
  }
  expect(
    await refusal(resolveHeldPayment(orders.as(admin), { ...input, note: 'x'.repeat(2001) })),
  ).toMatchObject({ code: 'invalid', fields: { note: ['noteTooLong'] } })
  for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
    expect(await refusal(resolveHeldPayment(orders.as(admin), { ...input, paymentId: id }))).toMatchObject({
      code: 'not_found',
      reason: 'paymentNotFound',
    })
  }
  expect(await snapshot()).toEqual(before)
  expect(await auditRows(pool)).toEqual([])
})

test('recording a bank transfer is audited with the request, the quote, the amount and the reference', async () => {
  const { pool, orders, quoted } = await setup()
  const { paymentId } = await recordManualPayment(orders.as(admin), {
    invoiceId: quoted.invoiceId,
    version: 0,
    amountJpy: String(quoted.totalJpy),
    reference: 'BBVA 0001',
  })
  expect(await auditRows(pool)).toEqual([
    {
      kind: 'payment.record',
      actor_id: admin.id,
      subject_type: 'payment',
      subject_id: paymentId,
      before: {},
      after: {
        request: quoted.requestNumber,
        invoice: quoted.invoiceNumber,
        amountJpy: quoted.totalJpy,
        reference: 'BBVA 0001',
      },
    },
  ])
})
