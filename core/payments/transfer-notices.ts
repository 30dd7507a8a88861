import { createHash, randomUUID } from 'node:crypto'
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import { recordAudit } from '#core/audit/audit-log.ts'
import { ownerPaths, type PaymentOwner } from '#core/billing/payment-owner.ts'
import { notifyCustomer, notifyStaff } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { isConstraintViolation } from '#core/shared/database-errors.ts'
import { AppError, isAppError } from '#core/shared/errors.ts'
import { recordOrderEvent } from '#core/shared/history.ts'
import { isUuid } from '#core/shared/ids.ts'
import { invalidInput } from '#core/shared/input-errors.ts'
import { type Actor, isStaff, requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import type { FileStore } from '#core/uploads/file-store.ts'
import { processPhoto } from '#core/uploads/images.ts'
import { PHOTO_REFUSALS } from '#core/uploads/photo-rules.ts'
import type { Executor } from '#db/client.ts'
import { invoices, payments, purchaseRequests, shipments, transferNotices, users } from '#db/schema/index.ts'
import { canRecordPayment } from './payment-policy.ts'
import { DismissTransferSchema, ReportTransferSchema, TRANSFER_PROOF_MAX_BYTES } from './payment-schemas.ts'
import { assertPayable, invoiceNotFound, invoiceWithOwner, PAYMENTS_NEED_SIGN_IN } from './settle-payment.ts'

/** A refused form: `invalid`, reason `transferInvalid`. */
const REFUSED = { message: 'Transfer notice refused', reason: 'transferInvalid' }

/**
 * "I have paid" (docs/decisions/036): the customer says they paid an open quote or shipping
 * receipt by bank transfer, with an optional proof. It is never a payment: nothing is marked
 * paid, no payment row is written. It puts the invoice among the staff's "payments to confirm"
 * and tells the admins; the customer's page says it is being checked and offers no other way to
 * pay meanwhile. An admin then records the transfer with the bank's reference as before
 * (staff-payments.ts `recordManualPayment`, which confirms the notice in its transaction), or says
 * it has not arrived (`dismissTransferNotice`, with a reason the customer reads).
 *
 * The proof: a photo is checked and re-encoded as every upload is (core/uploads/images.ts: no
 * metadata, WebP); a PDF is kept as sent, after checking by its bytes that it is one and within
 * the size. Both in the file store under a key we build, served only to the owner and staff.
 */

export const TRANSFER_ENTITY_EVENTS = {
  reported: 'transfer_reported',
  dismissed: 'transfer_not_received',
} as const

/** What a proof is, by its first bytes; anything else is refused. */
export type ProofType = 'image/webp' | 'application/pdf'

const noticeNotFound = (id: string) =>
  new AppError('not_found', `Transfer notice ${String(id).slice(0, 80)} not found`, {
    reason: 'transferNotFound',
  })

const proofRefused = (code: string, message: string) =>
  new AppError('invalid', message, { reason: 'transferInvalid', fieldErrors: { proof: [code] } })

/**
 * Whether these bytes are a PDF we keep: `%PDF-1.x` or `%PDF-2.x` at the start (the header may
 * follow up to 1 KiB of anything, by the standard, but every producer writes it first) and an
 * `%%EOF` marker in the last 2 KiB. Its contents are never read or run by us; it is served as a
 * download, sandboxed.
 */
export function looksLikePdf(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 16) return false
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 8))
  if (!/^%PDF-[12]\.\d/.test(head)) return false
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.byteLength - 2048)))
  return tail.includes('%%EOF')
}

/** The proof made safe, or null for none; refusals are field errors on `proof`. */
async function prepareProof(
  upload: Blob | null | undefined,
): Promise<{ bytes: Uint8Array; type: ProofType } | null> {
  if (!upload || upload.size === 0) return null
  if (upload.size > TRANSFER_PROOF_MAX_BYTES)
    throw proofRefused('proofTooLarge', `Proof of ${upload.size} bytes`)
  const bytes = new Uint8Array(await upload.arrayBuffer())
  if (new TextDecoder('latin1').decode(bytes.subarray(0, 5)) === '%PDF-') {
    if (!looksLikePdf(bytes)) throw proofRefused('proofCorrupt', 'A PDF without its header or end')
    return { bytes, type: 'application/pdf' }
  }
  try {
    const photo = await processPhoto(bytes, { type: upload.type, name: (upload as Partial<File>).name })
    return { bytes: photo.bytes, type: 'image/webp' }
  } catch (error) {
    const refusal = isAppError(error, 'invalid') ? error.details.reason : undefined
    if (!(PHOTO_REFUSALS as readonly (string | undefined)[]).includes(refusal)) throw error
    const code =
      refusal === 'photoType'
        ? 'proofType'
        : refusal === 'photoTooLarge'
          ? 'proofTooLarge'
          : refusal === 'photoEmpty'
            ? 'proofEmpty'
            : 'proofCorrupt'
    throw proofRefused(code, `Proof refused: ${refusal}`)
  }
}

/** The owner's history entity and its number, as the rest of the order services name them. */
function ownerEntity(owner: PaymentOwner): string {
  return owner.kind === 'request' ? 'purchase_request' : 'shipment'
}

/**
 * The owner says they paid this open invoice by bank transfer, optionally with a proof and a
 * note. One pending notice per invoice.
 * @throws AppError `unauthorized`; `not_found` (not theirs, or no such invoice; staff too: it is
 *   the customer's word); `invalid` (field errors on `note`, `proof`); `conflict` (`invoicePaid`,
 *   `invoiceNotPayable`, `transferAlreadyReported`, `paymentUnderReview`).
 */
export async function reportTransfer(
  ctx: OrderContext,
  input: { invoiceId?: unknown; note?: unknown },
  proof: Blob | null = null,
): Promise<{ noticeId: string }> {
  const actor = requireActor(ctx.actor, PAYMENTS_NEED_SIGN_IN)
  const invoiceId = String(input.invoiceId ?? '')
  if (!isUuid(invoiceId)) throw invoiceNotFound(invoiceId)
  const owned = await invoiceWithOwner(ctx.db, invoiceId, false)
  if (!owned || (owned.userId !== actor.id && !isStaff(actor))) throw invoiceNotFound(invoiceId)
  // Staff record transfers themselves; this is the customer's word.
  if (owned.userId !== actor.id) {
    throw new AppError('forbidden', `Only the customer reports paying invoice ${owned.number}`)
  }
  const parsed = ReportTransferSchema.safeParse(input)
  if (!parsed.success) throw invalidInput(parsed.error.issues, REFUSED)
  const prepared = await prepareProof(proof)
  const noticeId = randomUUID()
  const key = prepared
    ? `transfer-proofs/${noticeId}/${randomUUID()}.${prepared.type === 'application/pdf' ? 'pdf' : 'webp'}`
    : null
  if (prepared && key) await ctx.files.put(key, prepared.bytes)
  try {
    return await ctx.db.transaction(async (tx) => {
      const invoice = await invoiceWithOwner(tx, invoiceId, true)
      if (!invoice || invoice.userId !== actor.id) throw invoiceNotFound(invoiceId)
      assertPayable(invoice)
      const [pending] = await tx
        .select({ id: transferNotices.id })
        .from(transferNotices)
        .where(and(eq(transferNotices.invoiceId, invoice.id), eq(transferNotices.status, 'pending')))
      if (pending) throw alreadyReported(invoice.number)
      const [held] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.invoiceId, invoice.id), eq(payments.status, 'held')))
      if (held) {
        throw new AppError('conflict', `Invoice ${invoice.number} has a payment under review`, {
          reason: 'paymentUnderReview',
        })
      }
      await tx.insert(transferNotices).values({
        id: noticeId,
        invoiceId: invoice.id,
        userId: actor.id,
        note: parsed.data.note ?? null,
        proofKey: key,
        proofType: prepared?.type ?? null,
        proofBytes: prepared?.bytes.byteLength ?? null,
      })
      await recordOrderEvent(tx, {
        entityType: ownerEntity(invoice.owner),
        entityId: invoice.owner.id,
        event: TRANSFER_ENTITY_EVENTS.reported,
        actor: { kind: 'customer', id: actor.id },
        data: {
          invoiceId: invoice.id,
          invoiceNumber: invoice.number,
          noticeId,
          proof: prepared?.type ?? null,
        },
      })
      const [customer] = await tx.select({ name: users.name }).from(users).where(eq(users.id, actor.id))
      await notifyStaff(tx, ctx.jobs, {
        type: 'transfer_reported',
        params: {
          number: invoice.ownerNumber,
          invoice: invoice.number,
          amountJpy: invoice.totalJpy,
          customer: customer?.name ?? '',
        },
        link: ownerPaths(invoice.owner).staff,
        requestId: invoice.owner.kind === 'request' ? invoice.owner.id : null,
      })
      return { noticeId }
    })
  } catch (error) {
    if (key) await ctx.files.delete(key).catch(() => undefined)
    // Two tabs at once: the partial unique index lets one through.
    if (isConstraintViolation(error, 'unique', 'transfer_notices_one_pending_key'))
      throw alreadyReported(invoiceId)
    throw error
  }
}

function alreadyReported(number: string) {
  return new AppError('conflict', `A transfer for invoice ${number} is already being checked`, {
    reason: 'transferAlreadyReported',
  })
}

/**
 * An admin looked for the transfer and it has not arrived: the notice is closed with a reason the
 * customer reads (in the app and by e-mail), and the invoice can be paid again as before.
 * @throws AppError `unauthorized`; `forbidden` (moderators; a customer's own: `forbidden`, someone
 *   else's: `not_found`); `invalid` (reason); `not_found`; `conflict` (`transferChanged`: another
 *   version, or not pending any more).
 */
export async function dismissTransferNotice(
  ctx: OrderContext,
  input: { noticeId?: unknown; version?: unknown; reason?: unknown },
): Promise<void> {
  const actor = requireActor(ctx.actor, PAYMENTS_NEED_SIGN_IN)
  const noticeId = String(input.noticeId ?? '')
  if (!canRecordPayment(actor)) {
    if (actor.role === 'user') {
      const [row] = isUuid(noticeId)
        ? await ctx.db
            .select({ userId: transferNotices.userId })
            .from(transferNotices)
            .where(eq(transferNotices.id, noticeId))
        : []
      if (row?.userId !== actor.id) throw noticeNotFound(noticeId)
    }
    throw new AppError('forbidden', 'Only admins decide about a reported transfer', {
      reason: 'paymentAdminsOnly',
    })
  }
  if (!isUuid(noticeId)) throw noticeNotFound(noticeId)
  const parsed = DismissTransferSchema.safeParse(input)
  if (!parsed.success) throw invalidInput(parsed.error.issues, REFUSED)
  const { version, reason } = parsed.data
  await ctx.db.transaction(async (tx) => {
    const [found] = await tx
      .select({ invoiceId: transferNotices.invoiceId })
      .from(transferNotices)
      .where(eq(transferNotices.id, noticeId))
    if (!found) throw noticeNotFound(noticeId)
    // Locks in the usual order: the owner, the invoice, then the notice.
    const invoice = await invoiceWithOwner(tx, found.invoiceId, true)
    if (!invoice) throw noticeNotFound(noticeId)
    const [notice] = await tx
      .select({
        status: transferNotices.status,
        version: transferNotices.version,
        userId: transferNotices.userId,
      })
      .from(transferNotices)
      .where(eq(transferNotices.id, noticeId))
      .for('update')
    if (notice?.status !== 'pending' || notice.version !== version) {
      throw new AppError('conflict', `Transfer notice ${noticeId} changed`, { reason: 'transferChanged' })
    }
    const now = new Date()
    await setIfVersion(tx, transferNotices, {
      id: noticeId,
      version,
      set: { status: 'dismissed', dismissReason: reason, resolvedBy: actor.id, resolvedAt: now },
    })
    await recordOrderEvent(tx, {
      entityType: ownerEntity(invoice.owner),
      entityId: invoice.owner.id,
      event: TRANSFER_ENTITY_EVENTS.dismissed,
      actor: { kind: 'staff', id: actor.id },
      note: reason,
      data: { invoiceId: invoice.id, invoiceNumber: invoice.number, noticeId },
    })
    await notifyCustomer(tx, ctx.jobs, {
      userId: notice.userId,
      type: 'transfer_not_received',
      params: { number: invoice.ownerNumber, invoice: invoice.number, amountJpy: invoice.totalJpy, reason },
      requestId: invoice.owner.kind === 'request' ? invoice.owner.id : null,
      link: ownerPaths(invoice.owner).customer,
    })
    await recordAudit(tx, {
      actorId: actor.id,
      kind: 'payment.transfer_not_received',
      subject: { type: 'transfer_notice', id: noticeId },
      before: { status: 'pending' },
      after: {
        status: 'dismissed',
        [invoice.owner.kind]: invoice.ownerNumber,
        invoice: invoice.number,
        reason,
      },
    })
  })
}

/**
 * Inside `recordManualPayment`'s transaction (the invoice locked): the transfer the customer
 * reported is the one recorded; its notice is confirmed with that payment.
 */
export async function confirmTransferNotices(
  tx: Executor,
  input: { invoiceId: string; paymentId: string; actorId: string; at: Date },
): Promise<number> {
  const rows = await tx
    .update(transferNotices)
    .set({
      status: 'confirmed',
      paymentId: input.paymentId,
      resolvedBy: input.actorId,
      resolvedAt: input.at,
      version: sql`${transferNotices.version} + 1`,
    })
    .where(and(eq(transferNotices.invoiceId, input.invoiceId), eq(transferNotices.status, 'pending')))
    .returning({ id: transferNotices.id })
  return rows.length
}

export type TransferNoticeView = {
  id: string
  invoiceId: string
  invoiceNumber: string
  status: 'pending' | 'confirmed' | 'dismissed'
  note: string | null
  proofType: ProofType | null
  dismissReason: string | null
  createdAt: Date
  resolvedAt: Date | null
  version: number
}

/** The transfer notices of these invoices, newest first (the request or shipment page's). */
export async function transferNoticesOf(
  db: Executor,
  invoiceIds: readonly string[],
): Promise<TransferNoticeView[]> {
  if (invoiceIds.length === 0) return []
  const rows = await db
    .select({
      id: transferNotices.id,
      invoiceId: transferNotices.invoiceId,
      invoiceNumber: invoices.number,
      status: transferNotices.status,
      note: transferNotices.note,
      proofType: transferNotices.proofType,
      dismissReason: transferNotices.dismissReason,
      createdAt: transferNotices.createdAt,
      resolvedAt: transferNotices.resolvedAt,
      version: transferNotices.version,
    })
    .from(transferNotices)
    .innerJoin(invoices, eq(invoices.id, transferNotices.invoiceId))
    .where(inArray(transferNotices.invoiceId, [...invoiceIds]))
    .orderBy(desc(transferNotices.createdAt))
  return rows.map((row) => ({
    ...row,
    status: row.status as TransferNoticeView['status'],
    proofType: row.proofType as ProofType | null,
  }))
}

/**
 * A notice's proof, for the invoice's customer and staff; anyone else, or a notice without one,
 * gets `not_found` (as for a missing id).
 */
export async function getTransferProof(
  { db, actor }: ServiceContext,
  files: FileStore,
  noticeId: string,
): Promise<{ bytes: Uint8Array; contentType: ProofType; etag: string; invoiceNumber: string }> {
  const user = requireActor(actor, PAYMENTS_NEED_SIGN_IN)
  if (!isUuid(noticeId)) throw noticeNotFound(String(noticeId))
  const [row] = await db
    .select({
      userId: transferNotices.userId,
      key: transferNotices.proofKey,
      type: transferNotices.proofType,
      invoiceNumber: invoices.number,
    })
    .from(transferNotices)
    .innerJoin(invoices, eq(invoices.id, transferNotices.invoiceId))
    .where(eq(transferNotices.id, noticeId))
  if (!row || !(isStaff(user) || row.userId === user.id) || !row.key || !row.type)
    throw noticeNotFound(noticeId)
  const bytes = await files.get(row.key)
  if (!bytes) throw noticeNotFound(noticeId)
  return {
    bytes,
    contentType: row.type as ProofType,
    invoiceNumber: row.invoiceNumber,
    // The key holds a random id per proof: it names the bytes.
    etag: `"${createHash('sha256').update(row.key).digest('hex').slice(0, 32)}"`,
  }
}

export type PaymentToConfirm =
  | {
      kind: 'held'
      paymentId: string
      provider: string
      amount: number | null
      currency: string | null
      requestedJpy: number
      since: Date
      invoiceNumber: string
      owner: PaymentOwner
      ownerNumber: string
      customerName: string
      customerEmail: string
    }
  | {
      kind: 'reported'
      noticeId: string
      note: string | null
      proofType: ProofType | null
      requestedJpy: number
      since: Date
      invoiceNumber: string
      invoiceStatus: string
      owner: PaymentOwner
      ownerNumber: string
      customerName: string
      customerEmail: string
    }

/** At most this many of each kind on the page (they are few: each is a day's work at most). */
export const PAYMENTS_TO_CONFIRM_LIMIT = 100

/**
 * The staff's "payments to confirm" (admins): payments held for review and bank transfers that
 * customers reported, oldest first, each with its request or shipment and customer. Read from the
 * partial indexes of held payments and pending notices.
 * @throws AppError `unauthorized`, `forbidden` (not an admin).
 */
export async function listPaymentsToConfirm({ db, actor }: ServiceContext): Promise<{
  held: Extract<PaymentToConfirm, { kind: 'held' }>[]
  reported: Extract<PaymentToConfirm, { kind: 'reported' }>[]
  more: { held: boolean; reported: boolean }
}> {
  const user = requireActor(actor, PAYMENTS_NEED_SIGN_IN)
  if (!canRecordPayment(user)) {
    throw new AppError('forbidden', 'Payments to confirm are for admins', { reason: 'paymentAdminsOnly' })
  }
  const ownerColumns = {
    invoiceNumber: invoices.number,
    requestId: invoices.requestId,
    shipmentId: invoices.shipmentId,
    requestNumber: purchaseRequests.number,
    shipmentNumber: shipments.number,
    customerName: users.name,
    customerEmail: users.email,
  }
  const [heldRows, reportedRows] = await Promise.all([
    db
      .select({
        id: payments.id,
        provider: payments.provider,
        amount: payments.amount,
        currency: payments.currency,
        requestedJpy: payments.requestedJpy,
        since: payments.createdAt,
        ...ownerColumns,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .innerJoin(users, eq(users.id, invoices.userId))
      .leftJoin(purchaseRequests, eq(purchaseRequests.id, invoices.requestId))
      .leftJoin(shipments, eq(shipments.id, invoices.shipmentId))
      .where(eq(payments.status, 'held'))
      .orderBy(asc(payments.createdAt))
      .limit(PAYMENTS_TO_CONFIRM_LIMIT + 1),
    db
      .select({
        id: transferNotices.id,
        note: transferNotices.note,
        proofType: transferNotices.proofType,
        requestedJpy: invoices.totalJpy,
        invoiceStatus: invoices.status,
        since: transferNotices.createdAt,
        ...ownerColumns,
      })
      .from(transferNotices)
      .innerJoin(invoices, eq(invoices.id, transferNotices.invoiceId))
      .innerJoin(users, eq(users.id, invoices.userId))
      .leftJoin(purchaseRequests, eq(purchaseRequests.id, invoices.requestId))
      .leftJoin(shipments, eq(shipments.id, invoices.shipmentId))
      .where(eq(transferNotices.status, 'pending'))
      .orderBy(asc(transferNotices.createdAt))
      .limit(PAYMENTS_TO_CONFIRM_LIMIT + 1),
  ])
  const owner = (row: { requestId: string | null; shipmentId: string | null }): PaymentOwner =>
    row.requestId ? { kind: 'request', id: row.requestId } : { kind: 'shipment', id: row.shipmentId ?? '' }
  const common = (row: (typeof heldRows)[number] | (typeof reportedRows)[number]) => ({
    since: row.since,
    invoiceNumber: row.invoiceNumber,
    owner: owner(row),
    ownerNumber: row.requestNumber ?? row.shipmentNumber ?? '',
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    requestedJpy: row.requestedJpy,
  })
  return {
    held: heldRows.slice(0, PAYMENTS_TO_CONFIRM_LIMIT).map((row) => ({
      kind: 'held' as const,
      paymentId: row.id,
      provider: row.provider,
      amount: row.amount,
      currency: row.currency,
      ...common(row),
    })),
    reported: reportedRows.slice(0, PAYMENTS_TO_CONFIRM_LIMIT).map((row) => ({
      kind: 'reported' as const,
      noticeId: row.id,
      note: row.note,
      proofType: row.proofType as ProofType | null,
      invoiceStatus: row.invoiceStatus,
      ...common(row),
    })),
    more: {
      held: heldRows.length > PAYMENTS_TO_CONFIRM_LIMIT,
      reported: reportedRows.length > PAYMENTS_TO_CONFIRM_LIMIT,
    },
  }
}

/** Whether the actor is the one who may act on reported transfers (for a page's buttons). */
export function canDecideTransfers(actor: Actor | null): boolean {
  return canRecordPayment(actor)
}
