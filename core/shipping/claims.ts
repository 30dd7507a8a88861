import { and, asc, eq, inArray } from 'drizzle-orm'
import { recordAudit } from '#core/audit/audit-log.ts'
import { notifyCustomer, notifyStaff } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { completeFinishedRequests, requestsInShipment } from '#core/orders/request-completion.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { parse, staffActor } from '#core/shared/order-input.ts'
import type { Executor } from '#db/client.ts'
import {
  claims,
  invoiceLines,
  invoices,
  payments,
  purchaseRequests,
  refunds,
  requestItems,
  shipmentItems,
  shipments,
} from '#db/schema/index.ts'
import { applyShipmentEvent, SHIPMENT_ENTITY } from './shipment-events.ts'
import { InvestigateClaimSchema, OpenClaimSchema, ResolveClaimSchema } from './shipment-schemas.ts'

/**
 * Lost parcels (spec section 9; docs/decisions/030). A customer reports a shipped parcel that
 * has not arrived, some days after shipping (the `claimAfterDays` setting); staff investigate
 * with the carrier (its case reference, notes in the history); then an admin confirms it lost,
 * which refunds 50 % of the product value of the items in it (as due refunds on the payments
 * that paid for them, the recorded-refund flow of ADR 027) and marks the shipment lost, or staff
 * close the claim with a reason. Customs duties stay the customer's. One claim per shipment.
 */

export const CLAIM_STATUSES = ['open', 'investigating', 'lost', 'closed'] as const
export type ClaimStatus = (typeof CLAIM_STATUSES)[number]

const DAY_MS = 86_400_000
const shipmentPath = (id: string) => `/user-dashboard/shipments/${id}`
const staffPath = (id: string) => `/admin-dashboard/shipments/${id}`

const claimNotFound = (id: string) =>
  new AppError('not_found', `Claim ${id.slice(0, 80)} not found`, { reason: 'claimNotFound' })

/**
 * The owner reports the parcel missing.
 * @throws AppError `unauthorized`, `invalid` (note), `not_found` (also someone else's),
 * `conflict` (`shipmentChanged`; `claimNotYet`: not shipped, or shipped fewer than the setting's
 * days ago, with the first day allowed; `claimExists`: already claimed).
 */
export async function openClaim(
  { db, actor, jobs, settings }: OrderContext,
  input: unknown,
  now: Date = new Date(),
): Promise<{ claimId: string }> {
  if (!actor) throw new AppError('unauthorized', 'Claims need a signed-in user')
  const data = parse(OpenClaimSchema, input, 'shipmentInvalid')
  const { claimAfterDays } = await settings.get()
  return db.transaction(async (tx) => {
    const [shipment] = await tx
      .select({
        id: shipments.id,
        number: shipments.number,
        userId: shipments.userId,
        status: shipments.status,
        version: shipments.version,
        shippedAt: shipments.shippedAt,
      })
      .from(shipments)
      .where(eq(shipments.id, data.id))
      .for('update')
    if (!shipment || shipment.userId !== actor.id) {
      throw new AppError('not_found', `Shipment ${data.id} not found`, { reason: 'shipmentNotFound' })
    }
    if (shipment.version !== data.version) {
      throw new AppError('conflict', `Shipment ${shipment.number} changed`, { reason: 'shipmentChanged' })
    }
    const [existing] = await tx
      .select({ id: claims.id })
      .from(claims)
      .where(eq(claims.shipmentId, shipment.id))
    if (existing) {
      throw new AppError('conflict', `Shipment ${shipment.number} already has a claim`, {
        reason: 'claimExists',
      })
    }
    const allowedFrom = shipment.shippedAt
      ? new Date(shipment.shippedAt.getTime() + claimAfterDays * DAY_MS)
      : null
    if (shipment.status !== 'shipped' || !allowedFrom || now < allowedFrom) {
      throw new AppError('conflict', `Shipment ${shipment.number} cannot be claimed yet`, {
        reason: 'claimNotYet',
        ...(allowedFrom ? { retryAt: allowedFrom.toISOString() } : {}),
      })
    }
    const [created] = await tx
      .insert(claims)
      .values({ shipmentId: shipment.id, userId: actor.id, customerNote: data.note ?? null, openedAt: now })
      .returning({ id: claims.id })
    if (!created) throw new Error('Unable to store a claim: no row returned')
    await recordOrderEvent(tx, {
      entityType: SHIPMENT_ENTITY,
      entityId: shipment.id,
      event: 'claim_open',
      actor: { kind: 'customer', id: actor.id },
      note: data.note ?? null,
      data: { claimId: created.id },
    })
    await notifyCustomer(tx, jobs, {
      userId: shipment.userId,
      type: 'claim_opened',
      params: { number: shipment.number },
      link: shipmentPath(shipment.id),
    })
    await notifyStaff(tx, jobs, {
      type: 'new_claim',
      params: { number: shipment.number },
      link: staffPath(shipment.id),
    })
    return { claimId: created.id }
  })
}

type LockedClaim = {
  id: string
  shipmentId: string
  userId: string
  status: ClaimStatus
  version: number
  number: string
}

/** The claim and its shipment, locked shipment first (the lock order of every shipment change). */
async function lockClaim(tx: Executor, claimId: string, version: number): Promise<LockedClaim> {
  const [found] = await tx
    .select({ shipmentId: claims.shipmentId })
    .from(claims)
    .where(eq(claims.id, claimId))
  if (!found) throw claimNotFound(claimId)
  const [shipment] = await tx
    .select({ number: shipments.number })
    .from(shipments)
    .where(eq(shipments.id, found.shipmentId))
    .for('update')
  const [claim] = await tx
    .select({
      id: claims.id,
      shipmentId: claims.shipmentId,
      userId: claims.userId,
      status: claims.status,
      version: claims.version,
    })
    .from(claims)
    .where(eq(claims.id, claimId))
    .for('update')
  if (!claim || !shipment) throw claimNotFound(claimId)
  if (claim.version !== version) {
    throw new AppError('conflict', `Claim ${claimId} changed`, { reason: 'claimChanged' })
  }
  if (claim.status !== 'open' && claim.status !== 'investigating') {
    throw new AppError('conflict', `Claim ${claimId} is ${claim.status}`, { reason: 'claimResolved' })
  }
  return { ...claim, status: claim.status, number: shipment.number }
}

/**
 * Staff record what the carrier said (its case reference and/or a note for the history); the
 * first time, the customer is told we are investigating.
 * @throws AppError `unauthorized`, `forbidden`, `invalid` (nothing written, or too long),
 * `not_found`, `conflict` (`claimChanged`, `claimResolved`).
 */
export async function investigateClaim(
  { db, actor, jobs }: OrderContext,
  input: unknown,
): Promise<{ version: number }> {
  const staff = staffActor(actor, 'handle_arrivals')
  const data = parse(InvestigateClaimSchema, input, 'shipmentInvalid')
  if (!data.carrierReference && !data.note) {
    throw new AppError('invalid', 'Nothing to record', {
      reason: 'claimInvalid',
      fieldErrors: { note: ['noteOrReference'] },
    })
  }
  return db.transaction(async (tx) => {
    const claim = await lockClaim(tx, data.claimId, data.version)
    const version = await setIfVersion(tx, claims, {
      id: claim.id,
      set: {
        status: 'investigating',
        ...(data.carrierReference ? { carrierReference: data.carrierReference } : {}),
      },
    })
    await recordOrderEvent(tx, {
      entityType: SHIPMENT_ENTITY,
      entityId: claim.shipmentId,
      event: 'claim_investigate',
      actor: staff,
      note: data.note ?? null,
      data: { claimId: claim.id, carrierReference: data.carrierReference ?? null },
      visibleToCustomer: false,
    })
    if (claim.status === 'open') {
      await notifyCustomer(tx, jobs, {
        userId: claim.userId,
        type: 'claim_investigating',
        params: { number: claim.number },
        link: shipmentPath(claim.shipmentId),
      })
    }
    if (version === null) throw new Error(`Claim ${claim.id} vanished under its lock`)
    return { version }
  })
}

/** Half of a value in whole yen, rounded down (the customer is never promised a yen we cannot split). */
export function halfOf(valueJpy: number): number {
  return Math.floor(valueJpy / 2)
}

/**
 * Confirms the parcel lost (admins: it refunds money) or closes the claim (staff), with the
 * reason. Lost: the shipment moves to `lost`; for each payment that paid for items in it, a due
 * refund of half of those items' product value (the `item` lines of the paid purchase invoice);
 * the audit log and the customer are told the total.
 * @throws AppError `unauthorized`, `forbidden`, `invalid`, `not_found`, `conflict` (`claimChanged`,
 * `claimResolved`, `shipmentNotAllowed`).
 */
export async function resolveClaim(
  { db, actor, jobs }: OrderContext,
  input: unknown,
): Promise<{ status: 'lost' | 'closed'; refundJpy: number }> {
  const data = parse(ResolveClaimSchema, input, 'shipmentInvalid')
  const staff = staffActor(actor, data.resolution === 'lost' ? 'record_payment' : 'handle_arrivals')
  return db.transaction(async (tx) => {
    const claim = await lockClaim(tx, data.claimId, data.version)
    const now = new Date()
    let refundJpy = 0
    if (data.resolution === 'lost') refundJpy = await confirmLost(tx, claim, staff, data.reason, now)
    await setIfVersion(tx, claims, {
      id: claim.id,
      set: {
        status: data.resolution,
        closeReason: data.reason ?? null,
        refundJpy: data.resolution === 'lost' ? refundJpy : null,
        resolvedAt: now,
      },
    })
    if (data.resolution === 'closed') {
      await recordOrderEvent(tx, {
        entityType: SHIPMENT_ENTITY,
        entityId: claim.shipmentId,
        event: 'claim_close',
        actor: staff,
        note: data.reason ?? null,
        data: { claimId: claim.id },
      })
    }
    await notifyCustomer(tx, jobs, {
      userId: claim.userId,
      type: data.resolution === 'lost' ? 'claim_lost' : 'claim_closed',
      params:
        data.resolution === 'lost'
          ? { number: claim.number, refundJpy }
          : { number: claim.number, reason: data.reason ?? '' },
      link: shipmentPath(claim.shipmentId),
    })
    if (refundJpy > 0) {
      await notifyStaff(tx, jobs, {
        type: 'refund_due',
        params: { number: claim.number, amountJpy: refundJpy, provider: '—' },
        link: staffPath(claim.shipmentId),
      })
    }
    if (data.resolution === 'lost') {
      // With nothing to refund (no paid product value) its requests may be over now; with a
      // refund due, they are once it is sent (docs/decisions/034).
      const requestIds = await requestsInShipment(tx, claim.shipmentId)
      await completeFinishedRequests(tx, jobs, requestIds, 'shipment_lost')
    }
    return { status: data.resolution, refundJpy }
  })
}

/** Confirms the parcel lost: the refunds due, the shipment `lost` with its history row, the audit record; returns the refund. */
async function confirmLost(
  tx: Executor,
  claim: LockedClaim,
  staff: OrderActor,
  reason: string | null | undefined,
  now: Date,
): Promise<number> {
  const refundJpy = await refundLostValue(tx, claim, staff, now)
  // One history row says it all: lost, and what is refunded.
  await applyShipmentEvent(tx, {
    shipmentId: claim.shipmentId,
    event: 'lose',
    actor: staff,
    note: reason ?? null,
    data: { claimId: claim.id, refundJpy },
  })
  await recordAudit(tx, {
    actorId: staff.id,
    kind: 'claim.lost',
    subject: { type: 'shipment', id: claim.shipmentId },
    before: { status: 'shipped' },
    after: { status: 'lost', shipment: claim.number, refundJpy, reason: reason ?? '' },
  })
  return refundJpy
}

/**
 * Puts half of the product value of the items in the lost box due back, on the payment that paid
 * each invoice (their requests locked first); returns the total.
 */
async function refundLostValue(
  tx: Executor,
  claim: LockedClaim,
  staff: OrderActor,
  now: Date,
): Promise<number> {
  // What the customer paid for the items in the box, payment by payment.
  const paid = await tx
    .select({
      requestId: requestItems.requestId,
      invoiceId: invoices.id,
      amountJpy: invoiceLines.amountJpy,
    })
    .from(shipmentItems)
    .innerJoin(requestItems, eq(requestItems.id, shipmentItems.itemId))
    .innerJoin(invoiceLines, and(eq(invoiceLines.itemId, requestItems.id), eq(invoiceLines.kind, 'item')))
    .innerJoin(invoices, and(eq(invoices.id, invoiceLines.invoiceId), eq(invoices.status, 'paid')))
    .where(and(eq(shipmentItems.shipmentId, claim.shipmentId), eq(shipmentItems.active, true)))
    .orderBy(asc(requestItems.requestId))
  const requestIds = [...new Set(paid.map((row) => row.requestId))]
  if (requestIds.length > 0) {
    await tx
      .select({ id: purchaseRequests.id })
      .from(purchaseRequests)
      .where(inArray(purchaseRequests.id, requestIds))
      .orderBy(asc(purchaseRequests.id))
      .for('update')
  }
  const byInvoice = new Map<string, number>()
  for (const row of paid) byInvoice.set(row.invoiceId, (byInvoice.get(row.invoiceId) ?? 0) + row.amountJpy)
  let refundJpy = 0
  for (const [invoiceId, valueJpy] of byInvoice) {
    const [payment] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.invoiceId, invoiceId), eq(payments.status, 'succeeded')))
      .limit(1)
      .for('update')
    const share = halfOf(valueJpy)
    if (!payment || share === 0) continue
    await tx.insert(refunds).values({
      paymentId: payment.id,
      amountJpy: share,
      status: 'due',
      reason: `lost parcel ${claim.number}: 50% of ¥${valueJpy}`,
      recordedBy: staff.id,
    })
    await setIfVersion(tx, payments, { id: payment.id, set: {}, at: now })
    refundJpy += share
  }
  return refundJpy
}

export type ClaimView = {
  id: string
  status: ClaimStatus
  version: number
  customerNote: string | null
  carrierReference: string | null
  closeReason: string | null
  refundJpy: number | null
  openedAt: Date
  resolvedAt: Date | null
}

/** A shipment's claim, if it has one (the caller has checked who may see the shipment). */
export async function claimOfShipment(db: Executor, shipmentId: string): Promise<ClaimView | null> {
  const [row] = await db.select().from(claims).where(eq(claims.shipmentId, shipmentId))
  if (!row) return null
  return {
    id: row.id,
    status: (CLAIM_STATUSES as readonly string[]).includes(row.status) ? (row.status as ClaimStatus) : 'open',
    version: row.version,
    customerNote: row.customerNote,
    carrierReference: row.carrierReference,
    closeReason: row.closeReason,
    refundJpy: row.refundJpy,
    openedAt: row.openedAt,
    resolvedAt: row.resolvedAt,
  }
}
