import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { getCreditNote, listCreditNotes } from '#core/billing/credit-notes.ts'
import { getInvoice } from '#core/billing/invoice-service.ts'
import { getPaymentPanel } from '#core/payments/payment-views.ts'
import { recordManualPayment } from '#core/payments/staff-payments.ts'
import {
  auditLog,
  creditNoteLines,
  creditNotes,
  invoices,
  notifications,
  orderEvents,
  payments,
  refunds,
  shipments,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { refusal } from '#tests/support/refusal.ts'
import {
  admin,
  ana,
  bruno,
  moderator,
  paidShipment,
  RATES,
  requestedShipment,
} from '#tests/support/shipment-fixtures.ts'
import { previewReissue, reissueShippingReceipt } from './receipt-reissue.ts'
import { packShipment } from './shipment-packing.ts'
import { getShipment } from './shipment-service.ts'

// A wrong shipping receipt is fixed without cancelling the shipment (docs/decisions/037): an admin
// re-issues it at the corrected price with a reason and a confirmation; an open one is voided and
// replaced; a paid one is taken back by a credit note, its money carried to the new receipt, the
// rest refunded or asked for. Everything in one transaction; invoices and credit notes stay frozen.

async function setup() {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool)
  const snapshot = async () => ({
    invoices: (await db.select().from(invoices)).map((row) => [row.number, row.status]),
    creditNotes: (await db.select().from(creditNotes)).length,
    refunds: (await db.select().from(refunds)).length,
    shipments: (await db.select().from(shipments)).map((row) => [row.version, row.priceJpy]),
    events: (await db.select().from(orderEvents)).length,
    notifications: (await db.select().from(notifications)).length,
    audit: (await db.select().from(auditLog)).length,
  })
  const told = async (type: string) => db.select().from(notifications).where(eq(notifications.type, type))
  return { db, pool, orders, snapshot, told }
}

test('an open receipt: only an admin re-issues it, with a reason and a confirmation; the old one is voided, the customer told the new amount', async () => {
  const { db, pool, orders, snapshot, told } = await setup()
  const { shipment } = await requestedShipment(db, pool, orders)
  // Nothing to re-issue before it is packed.
  expect(
    await refusal(
      reissueShippingReceipt(orders.as(admin), {
        id: shipment.id,
        version: 0,
        price: '1000',
        reason: 'x',
        confirm: 'yes',
      }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'receiptNotReissuable' })
  const packed = await packShipment(
    orders.as(moderator),
    { id: shipment.id, version: 0, weight: '1250' },
    RATES,
  )
  const input = {
    id: shipment.id,
    version: packed.version,
    price: '4,200',
    reason: 'Weighed with the pallet',
  }
  const before = await snapshot()
  expect(await refusal(reissueShippingReceipt(orders.as(null), input))).toMatchObject({
    code: 'unauthorized',
  })
  expect(await refusal(reissueShippingReceipt(orders.as(ana), input))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(reissueShippingReceipt(orders.as(moderator), input))).toMatchObject({
    code: 'forbidden',
  })
  expect(
    await refusal(reissueShippingReceipt(orders.as(admin), { ...input, reason: '', confirm: 'yes' })),
  ).toMatchObject({ code: 'invalid', fields: { reason: ['reasonRequired'] } })
  expect(
    await refusal(reissueShippingReceipt(orders.as(admin), { ...input, price: '5000', confirm: 'yes' })),
  ).toMatchObject({ code: 'invalid', reason: 'receiptUnchanged', fields: { price: ['priceUnchanged'] } })
  expect(
    await refusal(reissueShippingReceipt(orders.as(admin), { ...input, version: 0, confirm: 'yes' })),
  ).toMatchObject({ code: 'conflict', reason: 'shipmentChanged' })
  // Not confirmed: refused, and the page can show what would happen.
  expect(await refusal(reissueShippingReceipt(orders.as(admin), input))).toMatchObject({
    code: 'invalid',
    reason: 'actionNotConfirmed',
    fields: { confirm: ['confirmRequired'] },
  })
  expect(await previewReissue(orders.as(admin), input)).toMatchObject({
    current: { number: packed.invoiceNumber, status: 'open', totalJpy: 5000 },
    totals: { totalJpy: 4200 },
    carriedJpy: 0,
    toPayJpy: 4200,
    refundDueJpy: 0,
    creditNote: false,
  })
  expect(await snapshot()).toEqual(before)

  const done = await reissueShippingReceipt(orders.as(admin), { ...input, confirm: 'yes' })
  expect(done).toMatchObject({ totalJpy: 4200, toPayJpy: 4200, refundDueJpy: 0, creditNote: null })
  const old = await getInvoice(orders.as(ana), packed.invoiceId)
  expect(old).toMatchObject({ status: 'void', replacedByNumber: done.invoiceNumber, totalJpy: 5000 })
  const fresh = await getInvoice(orders.as(ana), done.invoiceId)
  expect(fresh).toMatchObject({
    status: 'open',
    shippingJpy: 4200,
    totalJpy: 4200,
    creditAppliedJpy: 0,
    replacesNumber: packed.invoiceNumber,
  })
  expect(await getPaymentPanel(orders.as(ana), { kind: 'shipment', id: shipment.id })).toMatchObject({
    invoice: { id: done.invoiceId, dueJpy: 4200 },
    canPay: true,
  })
  const detail = await getShipment(orders.as(admin), shipment.id)
  expect(detail).toMatchObject({
    status: 'packed',
    packing: { priceJpy: 4200, priceReason: 'Weighed with the pallet' },
  })
  expect(detail.events.at(-1)).toMatchObject({ event: 'reissue_receipt', note: 'Weighed with the pallet' })
  expect(await told('receipt_reissued')).toEqual([
    expect.objectContaining({
      userId: ana.id,
      params: {
        number: shipment.number,
        invoice: done.invoiceNumber,
        previous: packed.invoiceNumber,
        totalJpy: 4200,
        reason: 'Weighed with the pallet',
      },
    }),
  ])
  const [audit] = await db.select().from(auditLog).where(eq(auditLog.kind, 'shipment.receipt_reissue'))
  expect(audit).toMatchObject({
    actorId: admin.id,
    subjectId: shipment.id,
    before: { invoice: packed.invoiceNumber, totalJpy: 5000 },
  })
  // A transfer for the old amount is refused; the new one pays it and the shipment.
  expect(
    await refusal(
      recordManualPayment(orders.as(admin), {
        invoiceId: packed.invoiceId,
        version: 2,
        amountJpy: '5000',
        reference: 'BANK old',
      }),
    ),
  ).toMatchObject({ reason: 'invoiceNotPayable' })
  await recordManualPayment(orders.as(admin), {
    invoiceId: done.invoiceId,
    version: 0,
    amountJpy: '4200',
    reference: 'BANK new',
  })
  expect((await getShipment(orders.as(ana), shipment.id)).status).toBe('paid')
  // Invoices stay frozen: no amount of an issued one can change, whatever the code does.
  await expect(
    pool.query('UPDATE invoices SET total_jpy = 1, shipping_jpy = 1 WHERE id = $1', [done.invoiceId]),
  ).rejects.toThrow(/frozen/)
  await expect(
    pool.query('UPDATE invoices SET credit_applied_jpy = 1 WHERE id = $1', [done.invoiceId]),
  ).rejects.toThrow(/frozen/)
})

test('a paid receipt re-issued lower: a credit note takes it back, the new receipt is paid with that money, the rest is a refund due', async () => {
  const { db, pool, orders, told } = await setup()
  const { shipment, packed, version } = await paidShipment(db, pool, orders)
  const [payment] = await db.select().from(payments).where(eq(payments.invoiceId, packed.invoiceId))
  const done = await reissueShippingReceipt(orders.as(admin), {
    id: shipment.id,
    version,
    price: '3800',
    reason: 'Charged as EMS by mistake',
    confirm: 'yes',
  })
  expect(done).toMatchObject({ totalJpy: 3800, toPayJpy: 0, refundDueJpy: 1200 })
  expect(done.creditNote?.number).toMatch(/^CN-\d{4}-000001$/)
  // The old receipt was paid: it stays paid (it was), taken back by the credit note.
  const old = await getInvoice(orders.as(ana), packed.invoiceId)
  expect(old).toMatchObject({ status: 'paid', creditedBy: { number: done.creditNote?.number } })
  const fresh = await getInvoice(orders.as(ana), done.invoiceId)
  expect(fresh).toMatchObject({
    status: 'paid',
    totalJpy: 3800,
    creditAppliedJpy: 3800,
    creditFrom: { number: done.creditNote?.number },
  })
  // The credit note: numbered, the old receipt's lines and amounts, the reason, frozen.
  const note = await getCreditNote(orders.as(ana), done.creditNote?.id ?? '')
  expect(note).toMatchObject({
    number: done.creditNote?.number,
    owner: { kind: 'shipment', id: shipment.id },
    ownerNumber: shipment.number,
    invoice: { id: packed.invoiceId, number: packed.invoiceNumber },
    appliedTo: { id: done.invoiceId, number: done.invoiceNumber },
    totalJpy: 5000,
    nonTaxableJpy: 5000,
    taxJpy: 0,
    reason: 'Charged as EMS by mistake',
    lines: [{ kind: 'shipping', amountJpy: 5000, taxable: false }],
  })
  expect(await refusal(getCreditNote(orders.as(bruno), note.id))).toMatchObject({ code: 'not_found' })
  expect(await refusal(getCreditNote(orders.as(null), note.id))).toMatchObject({ code: 'unauthorized' })
  expect((await getCreditNote(orders.as(moderator), note.id)).number).toBe(note.number)
  // What a customer's money history lists: their own, or, for staff, a customer's.
  expect((await listCreditNotes(orders.as(ana))).map((row) => row.number)).toEqual([note.number])
  expect(await listCreditNotes(orders.as(bruno))).toEqual([])
  expect((await listCreditNotes(orders.as(admin), { userId: ana.id })).map((row) => row.totalJpy)).toEqual([
    5000,
  ])
  expect(await refusal(listCreditNotes(orders.as(bruno), { userId: ana.id }))).toMatchObject({
    code: 'forbidden',
  })
  await expect(pool.query(`UPDATE credit_notes SET total_jpy = 1 WHERE id = $1`, [note.id])).rejects.toThrow(
    /append-only/,
  )
  await expect(
    pool.query(`UPDATE credit_note_lines SET amount_jpy = 1 WHERE credit_note_id = $1`, [note.id]),
  ).rejects.toThrow(/append-only/)
  expect((await db.select().from(creditNoteLines)).length).toBe(1)
  // The difference is due back on the payment that paid the old receipt; the shipment stays paid.
  expect(
    (
      await db
        .select()
        .from(refunds)
        .where(eq(refunds.paymentId, payment?.id ?? ''))
    ).map((row) => [row.status, row.amountJpy, row.reason]),
  ).toEqual([['due', 1200, 'receipt_reissued']])
  expect((await getShipment(orders.as(ana), shipment.id)).status).toBe('paid')
  expect(await told('receipt_reissued_refund')).toEqual([
    expect.objectContaining({
      params: expect.objectContaining({
        refundJpy: 1200,
        totalJpy: 3800,
        reason: 'Charged as EMS by mistake',
      }),
    }),
  ])
  expect(await getPaymentPanel(orders.as(ana), { kind: 'shipment', id: shipment.id })).toMatchObject({
    invoice: { id: done.invoiceId, status: 'paid' },
    canPay: false,
  })
})

test('a paid receipt re-issued higher: the money paid counts, the customer pays only the difference, and the shipment does not move back', async () => {
  const { db, pool, orders, told } = await setup()
  const { shipment, version } = await paidShipment(db, pool, orders)
  const done = await reissueShippingReceipt(orders.as(admin), {
    id: shipment.id,
    version,
    price: '5600',
    reason: 'The box was 1,900 g, not 1,250 g',
    confirm: 'yes',
  })
  expect(done).toMatchObject({ totalJpy: 5600, toPayJpy: 600, refundDueJpy: 0 })
  expect(await getInvoice(orders.as(ana), done.invoiceId)).toMatchObject({
    status: 'open',
    creditAppliedJpy: 5000,
  })
  expect(await told('receipt_reissued_topay')).toEqual([
    expect.objectContaining({ params: expect.objectContaining({ toPayJpy: 600, paidJpy: 5000 }) }),
  ])
  const owner = { kind: 'shipment' as const, id: shipment.id }
  expect(await getPaymentPanel(orders.as(ana), owner)).toMatchObject({
    invoice: { id: done.invoiceId, totalJpy: 5600, dueJpy: 600 },
    canPay: true,
  })
  // A transfer of the whole total is refused: the receipt asks for what is left.
  expect(
    await refusal(
      recordManualPayment(orders.as(admin), {
        invoiceId: done.invoiceId,
        version: 0,
        amountJpy: '5600',
        reference: 'BANK whole',
      }),
    ),
  ).toMatchObject({ reason: 'paymentAmountMismatchReceipt' })
  await recordManualPayment(orders.as(admin), {
    invoiceId: done.invoiceId,
    version: 0,
    amountJpy: '600',
    reference: 'BANK rest',
  })
  const detail = await getShipment(orders.as(ana), shipment.id)
  expect(detail.status).toBe('paid')
  expect(detail.events.map((event) => event.event).slice(-2)).toEqual(['reissue_receipt', 'receipt_paid'])
  expect(await getInvoice(orders.as(ana), done.invoiceId)).toMatchObject({ status: 'paid' })
  expect(await told('shipment_paid')).toEqual([
    expect.anything(),
    expect.objectContaining({ params: { number: shipment.number, amountJpy: 600 } }),
  ])
})

test('re-issuing again before the rest is paid passes the carried credit on, with no second credit note', async () => {
  const { db, pool, orders } = await setup()
  const { shipment, version, packed } = await paidShipment(db, pool, orders)
  const higher = await reissueShippingReceipt(orders.as(admin), {
    id: shipment.id,
    version,
    price: '6000',
    reason: 'Wrong row of the table',
    confirm: 'yes',
  })
  const [current] = await db
    .select({ version: shipments.version })
    .from(shipments)
    .where(eq(shipments.id, shipment.id))
  const lower = await reissueShippingReceipt(orders.as(admin), {
    id: shipment.id,
    version: current?.version ?? 0,
    price: '4500',
    reason: 'Wrong again: the economy row',
    confirm: 'yes',
  })
  // The open receipt carried ¥5,000 (no new credit note: nothing was paid on it); ¥4,500 is paid
  // with it at once and ¥500 goes back.
  expect(lower).toMatchObject({ totalJpy: 4500, toPayJpy: 0, refundDueJpy: 500, creditNote: null })
  expect(await getInvoice(orders.as(ana), higher.invoiceId)).toMatchObject({ status: 'void' })
  expect(await getInvoice(orders.as(ana), lower.invoiceId)).toMatchObject({
    status: 'paid',
    creditAppliedJpy: 4500,
  })
  expect((await db.select().from(creditNotes)).length).toBe(1)
  const [payment] = await db.select().from(payments).where(eq(payments.invoiceId, packed.invoiceId))
  expect(
    (
      await db
        .select()
        .from(refunds)
        .where(and(eq(refunds.paymentId, payment?.id ?? ''), eq(refunds.status, 'due')))
    ).map((row) => row.amountJpy),
  ).toEqual([500])
})
