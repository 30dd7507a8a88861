import { readdirSync } from 'node:fs'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { expect, test } from 'vitest'
import { expireQuotes } from '#core/orders/quote-expiry.ts'
import { cancelRequest } from '#core/orders/request-service.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { packShipment } from '#core/shipping/shipment-packing.ts'
import { cancelShipment } from '#core/shipping/shipment-service.ts'
import {
  auditLog,
  invoices,
  notifications,
  orderEvents,
  payments,
  purchaseRequests,
  transferNotices,
} from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { insertQuotedRequest } from '#tests/support/invoices.ts'
import { createOrderTestDeps } from '#tests/support/order-context.ts'
import { phoneJpeg } from '#tests/support/photo-fixtures.ts'
import { refusal } from '#tests/support/refusal.ts'
import { RATES, requestedShipment, moderator as shipModerator } from '#tests/support/shipment-fixtures.ts'
import { insertPeople } from '#tests/support/warehouse-fixtures.ts'
import { startCheckout } from './payment-service.ts'
import { getPaymentPanel } from './payment-views.ts'
import type { PaymentProvider } from './provider.ts'
import { recordManualPayment } from './staff-payments.ts'
import {
  dismissTransferNotice,
  getTransferProof,
  listPaymentsToConfirm,
  looksLikePdf,
  reportTransfer,
} from './transfer-notices.ts'

// "I have paid" (docs/decisions/036): the customer's word, never a payment; staff confirm it by
// recording the transfer, or say it has not arrived.

const ana: Actor = { id: 'user-ana', role: 'user' }
const bruno: Actor = { id: 'user-bruno', role: 'user' }
const admin: Actor = { id: 'user-admin', role: 'admin' }
const moderator: Actor = { id: 'user-mod', role: 'moderator' }

// A provider that is configured but never reached: checkouts are refused before it is called.
const unreachable = { name: 'paypal' } as unknown as PaymentProvider

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
const file = (bytes: Uint8Array | Buffer, name: string, type: string) =>
  new File([new Uint8Array(bytes)], name, { type })

async function setup({ people = true } = {}) {
  const { db, pool } = await createTestDatabase()
  const orders = await createOrderTestDeps(db, pool, { payments: [unreachable] })
  if (people) {
    await insertPeople(db, [
      { ...ana, name: 'Ana Pérez' },
      { ...bruno, name: 'Bruno Díaz' },
      { ...admin, name: 'Admin' },
      { ...moderator, name: 'Mod' },
    ])
  }
  const storedFiles = () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
      )
    return walk(orders.files.root)
  }
  const notice = async (invoiceId: string) =>
    await db.select().from(transferNotices).where(eq(transferNotices.invoiceId, invoiceId))
  return { db, pool, orders, storedFiles, notice }
}

test('the customer says they paid, with a PDF: a pending notice, the admins told, nothing paid, the page says it is checked', async () => {
  const { db, pool, orders, notice, storedFiles } = await setup()
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const { noticeId } = await reportTransfer(
    orders.as(ana),
    { invoiceId: quoted.invoiceId, note: '  Sent from Banco Azteca, Ana P.  ' },
    file(PDF, 'recibo.pdf', 'application/pdf'),
  )
  const [row] = await notice(quoted.invoiceId)
  expect(row).toMatchObject({
    id: noticeId,
    userId: ana.id,
    status: 'pending',
    note: 'Sent from Banco Azteca, Ana P.',
    proofType: 'application/pdf',
    proofBytes: PDF.byteLength,
    paymentId: null,
  })
  expect(storedFiles()).toHaveLength(1)
  // Never a payment: no row, the invoice open, the request quoted.
  expect(await db.select().from(payments)).toEqual([])
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, quoted.invoiceId))
  expect(invoice?.status).toBe('open')
  const [request] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, quoted.requestId))
  expect(request?.status).toBe('quoted')
  // In the request's history (the customer's too), and the admins' lists; moderators do not handle money.
  const history = await db
    .select({
      event: orderEvents.event,
      visible: orderEvents.visibleToCustomer,
      actor: orderEvents.actorKind,
    })
    .from(orderEvents)
    .where(eq(orderEvents.entityId, quoted.requestId))
  expect(history).toContainEqual({ event: 'transfer_reported', visible: true, actor: 'customer' })
  const told = await db
    .select({ userId: notifications.userId, type: notifications.type, params: notifications.params })
    .from(notifications)
    .where(eq(notifications.audience, 'staff'))
  expect(told).toEqual([
    {
      userId: admin.id,
      type: 'transfer_reported',
      params: {
        number: quoted.requestNumber,
        invoice: quoted.invoiceNumber,
        amountJpy: quoted.totalJpy,
        customer: 'Ana Pérez',
      },
    },
  ])
  const { rows: mails } = await pool.query(
    `SELECT data FROM pgboss.job WHERE name = 'notification.staff-email' AND data->>'type' = 'transfer_reported'`,
  )
  expect(mails).toHaveLength(1)

  // The customer's page: being checked, no way to pay or to report again; staff see the notice.
  const panel = await getPaymentPanel(orders.as(ana), { kind: 'request', id: quoted.requestId })
  expect(panel).toMatchObject({
    canPay: false,
    canReportTransfer: false,
    transferReported: { id: noticeId, proofType: 'application/pdf' },
    transfers: null,
  })
  const staffPanel = await getPaymentPanel(orders.as(moderator), { kind: 'request', id: quoted.requestId })
  expect(staffPanel).toMatchObject({
    canDismissTransfer: false,
    transfers: [{ id: noticeId, status: 'pending', invoiceNumber: quoted.invoiceNumber }],
  })
  expect(
    (await getPaymentPanel(orders.as(admin), { kind: 'request', id: quoted.requestId })).canDismissTransfer,
  ).toBe(true)

  // Meanwhile: no checkout, no second notice, no cancelling; the quote does not expire or remind.
  expect(
    await refusal(startCheckout(orders.as(ana), { invoiceId: quoted.invoiceId, provider: 'paypal' })),
  ).toMatchObject({ code: 'conflict', reason: 'transferBeingChecked' })
  expect(await refusal(reportTransfer(orders.as(ana), { invoiceId: quoted.invoiceId }))).toMatchObject({
    code: 'conflict',
    reason: 'transferAlreadyReported',
  })
  expect(
    await refusal(cancelRequest(orders.as(ana), { id: quoted.requestId, version: request?.version ?? 0 })),
  ).toMatchObject({ code: 'conflict', reason: 'transferBeingChecked' })
  const run = await expireQuotes(orders.as(null), new Date(Date.now() + 30 * 86_400_000))
  expect(run).toEqual({ expired: [], reminded: [] })
  const run2 = await expireQuotes(orders.as(null), new Date(Date.now() + 6.5 * 86_400_000))
  expect(run2).toEqual({ expired: [], reminded: [] })

  // The proof: to its customer and staff; anyone else as a missing one.
  for (const actor of [ana, moderator, admin]) {
    const proof = await getTransferProof(orders.as(actor), orders.files, noticeId)
    expect(proof.contentType).toBe('application/pdf')
    expect(Buffer.from(proof.bytes).equals(Buffer.from(PDF))).toBe(true)
  }
  expect(await refusal(getTransferProof(orders.as(bruno), orders.files, noticeId))).toMatchObject({
    code: 'not_found',
  })
  expect(await refusal(getTransferProof(orders.as(ana), orders.files, 'nonsense'))).toMatchObject({
    code: 'not_found',
  })
})

test('two tabs at once: one notice; who may report: the invoice’s customer only', async () => {
  const { pool, orders, notice } = await setup()
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const results = await Promise.allSettled([
    reportTransfer(orders.as(ana), { invoiceId: quoted.invoiceId }),
    reportTransfer(orders.as(ana), { invoiceId: quoted.invoiceId }),
  ])
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
  expect(await notice(quoted.invoiceId)).toHaveLength(1)

  const other = await insertQuotedRequest(pool, { userId: ana.id })
  expect(await refusal(reportTransfer(orders.as(null), { invoiceId: other.invoiceId }))).toMatchObject({
    code: 'unauthorized',
  })
  expect(await refusal(reportTransfer(orders.as(bruno), { invoiceId: other.invoiceId }))).toMatchObject({
    code: 'not_found',
  })
  for (const staff of [moderator, admin]) {
    expect(await refusal(reportTransfer(orders.as(staff), { invoiceId: other.invoiceId }))).toMatchObject({
      code: 'forbidden',
    })
  }
  expect(await refusal(reportTransfer(orders.as(ana), { invoiceId: 'x' }))).toMatchObject({
    code: 'not_found',
  })
  expect(
    await refusal(reportTransfer(orders.as(ana), { invoiceId: other.invoiceId, note: 'x'.repeat(501) })),
  ).toMatchObject({ code: 'invalid', fields: { note: ['transferNoteTooLong'] } })
  // A paid quote has nothing to report.
  await recordManualPayment(orders.as(admin), {
    invoiceId: other.invoiceId,
    version: 0,
    amountJpy: String(other.totalJpy),
    reference: 'BANK-1',
  })
  expect(await refusal(reportTransfer(orders.as(ana), { invoiceId: other.invoiceId }))).toMatchObject({
    code: 'conflict',
    reason: 'invoicePaid',
  })
  expect(await notice(other.invoiceId)).toEqual([])
})

test('a photo is re-encoded without its metadata; anything else that is not a PDF is refused and nothing is stored', async () => {
  const { pool, orders, notice, storedFiles } = await setup()
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const refused = async (proof: File) =>
    refusal(reportTransfer(orders.as(ana), { invoiceId: quoted.invoiceId }, proof))
  expect(
    await refused(file(new TextEncoder().encode('<svg onload="alert(1)"/>'), 'x.svg', 'image/svg+xml')),
  ).toMatchObject({
    code: 'invalid',
    reason: 'transferInvalid',
    fields: { proof: ['proofType'] },
  })
  expect(
    await refused(file(new TextEncoder().encode('<html>hi</html>'), 'r.pdf', 'application/pdf')),
  ).toMatchObject({
    fields: { proof: ['proofType'] },
  })
  // Says it is a PDF, is not one to its end.
  expect(
    await refused(file(new TextEncoder().encode('%PDF-1.4\nno end here'), 'r.pdf', 'application/pdf')),
  ).toMatchObject({
    fields: { proof: ['proofCorrupt'] },
  })
  expect(
    await refused(file(new Uint8Array(5 * 1024 * 1024 + 1), 'big.pdf', 'application/pdf')),
  ).toMatchObject({
    fields: { proof: ['proofTooLarge'] },
  })
  expect(await notice(quoted.invoiceId)).toEqual([])
  expect(storedFiles()).toEqual([])

  const jpeg = await phoneJpeg()
  const { noticeId } = await reportTransfer(
    orders.as(ana),
    { invoiceId: quoted.invoiceId },
    file(jpeg, 'IMG_0001.JPG', 'image/jpeg'),
  )
  const proof = await getTransferProof(orders.as(admin), orders.files, noticeId)
  expect(proof.contentType).toBe('image/webp')
  const metadata = await sharp(Buffer.from(proof.bytes)).metadata()
  expect(metadata.format).toBe('webp')
  expect(metadata.exif).toBeUndefined()
  // An empty file input is no proof.
  const again = await insertQuotedRequest(pool, { userId: ana.id })
  await reportTransfer(
    orders.as(ana),
    { invoiceId: again.invoiceId },
    file(new Uint8Array(), '', 'application/octet-stream'),
  )
  expect((await notice(again.invoiceId))[0]).toMatchObject({ proofKey: null, proofType: null })
})

test('what a PDF is: its header and its end marker, by the bytes', () => {
  expect(looksLikePdf(PDF)).toBe(true)
  expect(looksLikePdf(new TextEncoder().encode('%PDF-2.0\n...\n%%EOF'))).toBe(true)
  expect(looksLikePdf(new TextEncoder().encode('%PDF-1.7 but never ends'))).toBe(false)
  expect(looksLikePdf(new TextEncoder().encode('%PDX-1.7\n%%EOF'))).toBe(false)
  expect(looksLikePdf(new TextEncoder().encode('<html>%PDF-1.7 %%EOF</html>'))).toBe(false)
})

test('recording the transfer confirms the notice in the same transaction; the page then shows it paid', async () => {
  const { db, pool, orders, notice } = await setup()
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const { noticeId } = await reportTransfer(orders.as(ana), { invoiceId: quoted.invoiceId })
  const { paymentId } = await recordManualPayment(orders.as(admin), {
    invoiceId: quoted.invoiceId,
    version: 0,
    amountJpy: String(quoted.totalJpy),
    reference: 'BANK 2026-11-27 ANA',
  })
  expect((await notice(quoted.invoiceId))[0]).toMatchObject({
    id: noticeId,
    status: 'confirmed',
    paymentId,
    resolvedBy: admin.id,
    resolvedAt: expect.any(Date),
  })
  const panel = await getPaymentPanel(orders.as(ana), { kind: 'request', id: quoted.requestId })
  expect(panel).toMatchObject({ transferReported: null, transferDismissed: null, paidWith: 'manual' })
  const [audit] = await db.select().from(auditLog).where(eq(auditLog.kind, 'payment.record'))
  expect(audit?.after).toMatchObject({ reportedByCustomer: true })
  expect(await listPaymentsToConfirm(orders.as(admin))).toMatchObject({ reported: [], held: [] })
})

test('not arrived: admins only, with a reason the customer reads; then the customer may pay or report again', async () => {
  const { db, pool, orders, notice } = await setup()
  const quoted = await insertQuotedRequest(pool, { userId: ana.id })
  const { noticeId } = await reportTransfer(orders.as(ana), { invoiceId: quoted.invoiceId })
  const input = { noticeId, version: 0, reason: 'No transfer of this amount has reached our account.' }
  expect(await refusal(dismissTransferNotice(orders.as(null), input))).toMatchObject({ code: 'unauthorized' })
  expect(await refusal(dismissTransferNotice(orders.as(bruno), input))).toMatchObject({ code: 'not_found' })
  expect(await refusal(dismissTransferNotice(orders.as(ana), input))).toMatchObject({ code: 'forbidden' })
  expect(await refusal(dismissTransferNotice(orders.as(moderator), input))).toMatchObject({
    code: 'forbidden',
  })
  expect(await refusal(dismissTransferNotice(orders.as(admin), { ...input, reason: '   ' }))).toMatchObject({
    code: 'invalid',
    fields: { reason: ['reasonRequired'] },
  })
  expect(await refusal(dismissTransferNotice(orders.as(admin), { ...input, version: 3 }))).toMatchObject({
    code: 'conflict',
    reason: 'transferChanged',
  })
  expect((await notice(quoted.invoiceId))[0]?.status).toBe('pending')

  const listed = await listPaymentsToConfirm(orders.as(admin))
  expect(listed.reported).toMatchObject([
    {
      noticeId,
      ownerNumber: quoted.requestNumber,
      invoiceNumber: quoted.invoiceNumber,
      requestedJpy: quoted.totalJpy,
      customerName: 'Ana Pérez',
      owner: { kind: 'request', id: quoted.requestId },
      invoiceStatus: 'open',
    },
  ])
  expect(await refusal(listPaymentsToConfirm(orders.as(moderator)))).toMatchObject({ code: 'forbidden' })

  await dismissTransferNotice(orders.as(admin), input)
  // A second click: the notice moved on.
  expect(await refusal(dismissTransferNotice(orders.as(admin), input))).toMatchObject({
    code: 'conflict',
    reason: 'transferChanged',
  })
  expect((await notice(quoted.invoiceId))[0]).toMatchObject({
    status: 'dismissed',
    dismissReason: input.reason,
    resolvedBy: admin.id,
  })
  const [told] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, ana.id), eq(notifications.type, 'transfer_not_received')))
  expect(told).toMatchObject({
    audience: 'customer',
    params: { number: quoted.requestNumber, invoice: quoted.invoiceNumber, reason: input.reason },
    link: `/user-dashboard/requests/${quoted.requestId}`,
  })
  const [audit] = await db.select().from(auditLog).where(eq(auditLog.kind, 'payment.transfer_not_received'))
  expect(audit).toMatchObject({ actorId: admin.id, subjectId: noticeId })
  const panel = await getPaymentPanel(orders.as(ana), { kind: 'request', id: quoted.requestId })
  expect(panel).toMatchObject({
    canPay: true,
    canReportTransfer: true,
    transferReported: null,
    transferDismissed: { reason: input.reason },
  })
  await reportTransfer(orders.as(ana), { invoiceId: quoted.invoiceId })
  expect((await notice(quoted.invoiceId)).map((row) => row.status).sort()).toEqual(['dismissed', 'pending'])
})

test('a shipping receipt too: reported on the shipment, its cancelling refused meanwhile, staff see it to confirm', async () => {
  const { db, pool, orders } = await setup({ people: false })
  const requested = await requestedShipment(db, pool, orders)
  const packed = await packShipment(
    orders.as(shipModerator),
    { id: requested.shipment.id, version: 0, weight: '1250' },
    RATES,
  )
  await reportTransfer(orders.as(ana), { invoiceId: packed.invoiceId }, file(PDF, 'r.pdf', 'application/pdf'))
  const history = await db
    .select({ event: orderEvents.event, type: orderEvents.entityType })
    .from(orderEvents)
    .where(eq(orderEvents.entityId, requested.shipment.id))
  expect(history).toContainEqual({ event: 'transfer_reported', type: 'shipment' })
  expect(
    await refusal(
      cancelShipment(orders.as(ana), { id: requested.shipment.id, version: packed.version, confirm: 'yes' }),
    ),
  ).toMatchObject({ code: 'conflict', reason: 'transferBeingChecked' })
  const listed = await listPaymentsToConfirm(orders.as(admin))
  expect(listed.reported).toMatchObject([
    {
      owner: { kind: 'shipment', id: requested.shipment.id },
      ownerNumber: requested.shipment.number,
      proofType: 'application/pdf',
    },
  ])
  // Staff may still cancel it (they know of the notice: it stays for them to settle).
  await cancelShipment(orders.as(admin), {
    id: requested.shipment.id,
    version: packed.version,
    reason: 'Asked by the customer',
    confirm: 'yes',
  })
  expect((await listPaymentsToConfirm(orders.as(admin))).reported).toMatchObject([{ invoiceStatus: 'void' }])
})
