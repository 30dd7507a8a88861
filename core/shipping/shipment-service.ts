import { createHash } from 'node:crypto'
import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm'
import { applyInvoiceEvent } from '#core/billing/invoice-service.ts'
import { ownerHasPendingTransfer } from '#core/billing/pending-transfers.ts'
import type { StorageFeeLine } from '#core/billing/receipt-totals.ts'
import { notifyStaff } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import type { RateTables, ShippingMethod } from '#core/pricing/pricing.ts'
import { basisPointsOf } from '#core/pricing/quote-pricing.ts'
import type { Settings } from '#core/settings/settings-schema.ts'
import { requireConfirmation } from '#core/shared/confirmation.ts'
import { isConstraintViolation } from '#core/shared/database-errors.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import { isUuid } from '#core/shared/ids.ts'
import { invalidInput } from '#core/shared/input-errors.ts'
import { decodeTimeCursor, keysetPage, newestFirst, olderThan } from '#core/shared/keyset.ts'
import { type Actor, isStaff, requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import type { FileStore } from '#core/uploads/file-store.ts'
import { storageFeeOf } from '#core/warehouse/storage.ts'
import type { Executor } from '#db/client.ts'
import {
  addresses,
  claims,
  invoices,
  purchaseRequests,
  requestItems,
  type ShipmentAddress,
  shipmentItems,
  shipments,
  users,
} from '#db/schema/index.ts'
import { destinationForCountry } from './destinations.ts'
import { requireUsableMethod, rulesInEffectAt } from './import-estimate.ts'
import { openReceiptOf, releaseItems, tellCancelled } from './shipment-cancelling.ts'
import { estimateShipment, type ShipmentEstimate } from './shipment-estimate.ts'
import { applyShipmentEvent, SHIPMENT_ENTITY } from './shipment-events.ts'
import { isShipmentStatus, SHIPMENT_STATUSES, type ShipmentStatus } from './shipment-machine.ts'
import {
  readShipmentParts,
  readShipmentRow,
  shipmentDetail,
  summary,
  summaryColumns,
} from './shipment-reads.ts'
import { CancelShipmentSchema, type ShipmentChoice, ShipmentChoiceSchema } from './shipment-schemas.ts'
import type { Carrier } from './tracking.ts'

/** A refused form: `invalid`, reason `shipmentInvalid`. */
const REFUSED = { message: 'Shipment input refused', reason: 'shipmentInvalid' }

/**
 * Shipments (docs/decisions/028-shipments.md), first part: the customer picks items they have
 * at our office, from any of their requests, an address from their book and a method, sees the
 * estimate (the calculator's engine) and asks to ship; the items are reserved (an item is in at
 * most one open shipment: a partial unique index decides any race) and their free storage
 * pauses. The customer (or staff) may cancel until staff pack it. Staff see the queue.
 */

export const SHIPMENT_QUEUE_PAGE_SIZE = 50

/** Thrown (`unauthorized`) to anyone not signed in. */
const SIGNED_IN = 'Shipping needs a signed-in user'

function parseChoice(input: unknown): ShipmentChoice {
  const parsed = ShipmentChoiceSchema.safeParse(input)
  if (!parsed.success) throw invalidInput(parsed.error.issues, REFUSED)
  return parsed.data
}

const notShippable = () =>
  new AppError('conflict', 'An item is not at the office or already in a shipment', {
    reason: 'itemNotShippable',
    fieldErrors: { items: ['itemNotShippable'] },
  })

type Chosen = {
  items: { id: string; weightGrams: number }[]
  address: ShipmentAddress
  estimate: ShipmentEstimate
  destination: NonNullable<ReturnType<typeof destinationForCountry>>
}

/**
 * The customer's choice checked against what is theirs: every item at the office (received, not
 * in an open shipment), the address from their book, a country we ship to; then the estimate.
 * With `lock`, inside a transaction, the items' rows are locked.
 */
async function resolveChoice(
  db: Executor,
  user: Actor,
  choice: ShipmentChoice,
  {
    rates,
    settings,
    now,
    lock,
  }: {
    rates: RateTables
    settings: Pick<Settings, 'packingAllowanceG' | 'freeStorageDays' | 'storageFeePerDayJpy' | 'taxRate'>
    now: Date
    lock: boolean
  },
): Promise<Chosen> {
  const query = db
    .select({
      id: requestItems.id,
      status: requestItems.status,
      weightGrams: requestItems.weightGrams,
      title: requestItems.title,
      position: requestItems.position,
      requestNumber: purchaseRequests.number,
      receivedAt: requestItems.receivedAt,
      reservedAt: requestItems.reservedAt,
      pausedDays: requestItems.storagePausedDays,
      open: shipmentItems.shipmentId,
    })
    .from(requestItems)
    .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestItems.requestId))
    .leftJoin(shipmentItems, and(eq(shipmentItems.itemId, requestItems.id), eq(shipmentItems.active, true)))
    .where(and(inArray(requestItems.id, choice.items), eq(purchaseRequests.userId, user.id)))
  const rows = lock ? await query.for('update', { of: requestItems }) : await query
  if (
    rows.length !== choice.items.length ||
    rows.some((row) => row.status !== 'received' || row.open !== null || row.weightGrams === null)
  ) {
    throw notShippable()
  }
  const [address] = await db
    .select({
      fullName: addresses.fullName,
      street: addresses.street,
      city: addresses.city,
      region: addresses.region,
      postalCode: addresses.postalCode,
      country: addresses.country,
      phone: addresses.phone,
    })
    .from(addresses)
    .where(and(eq(addresses.id, choice.addressId), eq(addresses.userId, user.id)))
  if (!address) {
    throw new AppError('not_found', 'Address not found', {
      reason: 'addressNotFound',
      fieldErrors: { addressId: ['addressNotFound'] },
    })
  }
  const destination = destinationForCountry(address.country)
  if (!destination) {
    throw new AppError('invalid', `No shipping to ${address.country}`, {
      reason: 'shipmentInvalid',
      fieldErrors: { addressId: ['destinationUnsupported'] },
    })
  }
  // A method the country cannot use today (Japan Post's economy to the USA, issue 30) is refused,
  // whatever the page offered: nothing is estimated or written.
  requireUsableMethod(await rulesInEffectAt(db, now), address.country, choice.method)
  const items = rows.map((row) => ({ id: row.id, weightGrams: row.weightGrams ?? 0 }))
  // What each item's storage has run up by today: the receipt charges the same, since an item's
  // clock stops on the day it enters the shipment request (docs/decisions/028, 037).
  const storage: StorageFeeLine[] = rows.map((row) => ({
    itemId: row.id,
    title: row.title ?? `${row.requestNumber} · ${row.position}`,
    ...storageFeeOf(row, now, settings),
  }))
  const estimate = estimateShipment({
    itemWeightsG: items.map((item) => item.weightGrams),
    packingAllowanceG: settings.packingAllowanceG,
    method: choice.method,
    destination,
    rates,
    storage,
    taxRateBasisPoints: basisPointsOf(settings.taxRate),
  })
  return { items, address, estimate, destination }
}

export type EstimateView = { choice: ShipmentChoice; estimate: ShipmentEstimate; country: string }

/**
 * The estimate for the customer's choice, writing nothing (the shipping tab's "see the estimate").
 * @throws AppError `unauthorized`, `invalid` (field errors; `methodUnavailable`: the address's
 * country cannot use the method), `not_found` (address), `conflict` (`itemNotShippable`).
 */
export async function estimateMyShipment(
  { db, actor, settings }: OrderContext,
  input: unknown,
  rates: RateTables,
): Promise<EstimateView> {
  const user = requireActor(actor, SIGNED_IN)
  const choice = parseChoice(input)
  const config = await settings.get()
  const chosen = await resolveChoice(db, user, choice, {
    rates,
    settings: config,
    now: new Date(),
    lock: false,
  })
  return { choice, estimate: chosen.estimate, country: chosen.address.country }
}

/**
 * The customer asks to ship the chosen items: one transaction that locks them, checks them,
 * records the shipment with the address as it is now and the estimate, reserves the items
 * (their free storage pauses), writes the history and tells staff.
 * @throws AppError as `estimateMyShipment`, and `invalid` (`shipmentTooHeavy`, `shipmentNoRate`:
 * the method cannot carry it).
 */
export async function requestShipment(
  { db, actor, jobs, settings }: OrderContext,
  input: unknown,
  rates: RateTables,
  { locale }: { locale: 'es' | 'en' },
): Promise<{ id: string; number: string }> {
  const user = requireActor(actor, SIGNED_IN)
  const choice = parseChoice(input)
  const config = await settings.get()
  try {
    return await db.transaction(async (tx) => {
      const now = new Date()
      const chosen = await resolveChoice(tx, user, choice, { rates, settings: config, now, lock: true })
      const { estimate } = chosen
      if (!estimate.ok) {
        throw new AppError('invalid', `Shipment ${estimate.refusal}`, {
          reason: estimate.refusal === 'tooHeavy' ? 'shipmentTooHeavy' : 'shipmentNoRate',
          fieldErrors: { method: [estimate.refusal === 'tooHeavy' ? 'tooHeavy' : 'noRate'] },
        })
      }
      const [created] = await tx
        .insert(shipments)
        .values({
          userId: user.id,
          method: choice.method,
          address: chosen.address,
          country: chosen.address.country,
          region: estimate.region,
          route: estimate.route,
          estimatedWeightG: estimate.weightG,
          estimatedPriceJpy: estimate.priceJpy,
          estimatedStorageFeeJpy: estimate.storageFeeJpy,
          estimatedTaxJpy: estimate.taxJpy,
          locale,
          requestedAt: now,
        })
        .returning({ id: shipments.id, number: shipments.number })
      if (!created) throw new Error('Unable to store a shipment: no row returned')
      await tx
        .insert(shipmentItems)
        .values(chosen.items.map((item) => ({ shipmentId: created.id, itemId: item.id })))
      await tx
        .update(requestItems)
        .set({ reservedAt: now, updatedAt: now })
        .where(
          inArray(
            requestItems.id,
            chosen.items.map((item) => item.id),
          ),
        )
      const customer: OrderActor = { kind: 'customer', id: user.id }
      await recordOrderEvent(tx, {
        entityType: SHIPMENT_ENTITY,
        entityId: created.id,
        event: 'request',
        to: 'requested',
        actor: customer,
        data: {
          items: chosen.items.length,
          weightG: estimate.weightG,
          priceJpy: estimate.priceJpy,
          storageFeeJpy: estimate.storageFeeJpy,
          taxJpy: estimate.taxJpy,
          totalJpy: estimate.totalJpy,
        },
      })
      const [who] = await tx
        .select({ name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, user.id))
      await notifyStaff(tx, jobs, {
        type: 'new_shipment',
        params: {
          number: created.number,
          customer: who?.name || who?.email || user.id,
          count: chosen.items.length,
          method: choice.method,
          country: chosen.address.country,
        },
        link: `/admin-dashboard/shipments/${created.id}`,
      })
      return created
    })
  } catch (error) {
    // Another request took an item between our check and our insert (its unique index).
    if (isConstraintViolation(error, 'unique', 'shipment_items_one_active_key')) throw notShippable()
    throw error
  }
}

type LockedShipment = { id: string; number: string; userId: string; status: ShipmentStatus; version: number }

async function lockShipment(tx: Executor, id: string): Promise<LockedShipment | null> {
  const [row] = await tx
    .select({
      id: shipments.id,
      number: shipments.number,
      userId: shipments.userId,
      status: shipments.status,
      version: shipments.version,
    })
    .from(shipments)
    .where(eq(shipments.id, id))
    .for('update')
  if (!row) return null
  if (!isShipmentStatus(row.status)) throw new Error(`Unknown shipment status ${row.status}`)
  return { ...row, status: row.status }
}

const shipmentNotFound = (id: unknown) =>
  new AppError('not_found', `Shipment ${String(id).slice(0, 80)} not found`, { reason: 'shipmentNotFound' })

/**
 * Cancels a shipment not paid yet (its owner, or staff): the items go back to storage, and the
 * days they waited are given back to their free storage; a packed one's open shipping receipt is
 * voided in the same transaction (a payment that still arrives for it is held for staff, as for
 * any receipt no longer payable). Whoever cancels confirms it (`confirm`, docs/decisions/037);
 * staff say why, the customer may. The customer is told, in the app and by e-mail, who cancelled
 * it and why (`shipment_cancelled` by staff, `shipment_cancelled_by_you` by themselves).
 * @throws AppError `unauthorized`, `invalid` (`reasonRequired` for staff; `actionNotConfirmed`),
 * `not_found` (also another customer's), `conflict` (`shipmentChanged`: a stale page;
 * `shipmentNotAllowed`: paid already).
 */
export async function cancelShipment(
  { db, actor, jobs }: OrderContext,
  input: unknown,
): Promise<{ version: number }> {
  const user = requireActor(actor, SIGNED_IN)
  const parsed = CancelShipmentSchema.safeParse(input)
  if (!parsed.success) throw invalidInput(parsed.error.issues, REFUSED)
  const { id, version, reason, confirm } = parsed.data
  const staff = isStaff(user)
  if (staff && !reason) {
    throw new AppError('invalid', 'Staff cancel a shipment with a reason', {
      reason: 'shipmentInvalid',
      fieldErrors: { reason: ['reasonRequired'] },
    })
  }
  return db.transaction(async (tx) => {
    const shipment = await lockShipment(tx, id)
    if (!shipment || (!staff && shipment.userId !== user.id)) throw shipmentNotFound(id)
    // After who may see it: another customer's shipment stays a 404 whatever they send.
    requireConfirmation(confirm, `Cancelling shipment ${shipment.number}`)
    const kind = staff ? 'staff' : 'customer'
    // The customer said they paid its receipt by transfer: staff check that first (ADR 036).
    if (!staff && (await ownerHasPendingTransfer(tx, { shipmentId: id }))) {
      throw new AppError('conflict', `Shipment ${id} has a bank transfer being checked`, {
        reason: 'transferBeingChecked',
      })
    }
    const now = new Date()
    const receipt = shipment.status === 'packed' ? await openReceiptOf(tx, id) : undefined
    const applied = await applyShipmentEvent(tx, {
      shipmentId: id,
      event: 'cancel',
      actor: { kind, id: user.id },
      expectedVersion: version,
      note: reason ?? null,
      data: receipt ? { voidedInvoice: receipt.number, voidedJpy: receipt.totalJpy } : {},
      set: { cancelledAt: now },
    })
    if (applied.from === 'packed' && receipt) {
      await applyInvoiceEvent(tx, {
        invoiceId: receipt.id,
        event: 'void',
        actor: { kind, id: user.id },
        at: now,
        note: reason ?? null,
      })
    }
    await releaseItems(tx, id, now)
    await tellCancelled(tx, jobs, { id, shipment, byStaff: staff, reason, receipt })
    return { version: applied.version }
  })
}

export type ShipmentSummary = {
  id: string
  number: string
  status: ShipmentStatus
  method: ShippingMethod
  country: string
  items: number
  estimatedWeightG: number
  estimatedPriceJpy: number
  /** The storage fees and their tax in the estimate the customer saw (docs/decisions/037). */
  estimatedStorageFeeJpy: number
  estimatedTaxJpy: number
  requestedAt: Date
}

/** The signed-in customer's shipments, newest first. */
export async function listMyShipments({ db, actor }: ServiceContext): Promise<ShipmentSummary[]> {
  const user = requireActor(actor, SIGNED_IN)
  const rows = await db
    .select(summaryColumns)
    .from(shipments)
    .where(eq(shipments.userId, user.id))
    .orderBy(desc(shipments.requestedAt), desc(shipments.id))
    .limit(200)
  return rows.map(summary)
}

/** What packing recorded (staff weighed and priced the box): null until it is packed. */
export type ShipmentPacking = {
  weightG: number
  sizeCm: { length: number; width: number; height: number } | null
  priceJpy: number
  ratePriceJpy: number | null
  /** Staff only: why the price differs from the rate table's. */
  priceReason: string | null
  hasPhoto: boolean
  packedAt: Date | null
}

export type ShipmentDetail = ShipmentSummary & {
  version: number
  packing: ShipmentPacking | null
  /** Handed to the carrier: who carries it, its number, when; and when it was delivered. */
  tracking: { carrier: Carrier; number: string; shippedAt: Date } | null
  deliveredAt: Date | null
  address: ShipmentAddress
  route: string
  region: string
  customer: { id: string; name: string; email: string } | null
  lines: {
    id: string
    requestId: string
    requestNumber: string
    position: number
    title: string | null
    shopHost: string
    weightGrams: number | null
    packageNumber: string | null
    shelf: string | null
    /** Its storage clock: what its storage fee is counted from (docs/decisions/037). */
    receivedAt: Date | null
    reservedAt: Date | null
    pausedDays: number
  }[]
  events: { id: number; event: string; actorKind: string; note: string | null; createdAt: Date }[]
}

/**
 * One shipment for its owner or staff (shelves only for staff). Anyone else, and ids that are not
 * ids, get `not_found`.
 */
export async function getShipment({ db, actor }: ServiceContext, id: string): Promise<ShipmentDetail> {
  const user = requireActor(actor, SIGNED_IN)
  if (!isUuid(id)) throw shipmentNotFound(id)
  const row = await readShipmentRow(db, id)
  const staff = isStaff(user)
  if (!row || (!staff && row.userId !== user.id)) throw shipmentNotFound(id)
  const parts = await readShipmentParts(db, id, row.userId, staff)
  return shipmentDetail(row, parts, staff)
}

export type QueueRow = ShipmentSummary & { customerName: string; customerEmail: string }
export type ShipmentQueuePage = {
  rows: QueueRow[]
  nextCursor: string | null
  counts: Partial<Record<ShipmentStatus, number>>
}

/**
 * The staff queue of shipments, newest first, 50 a page, optionally of one status and matching a
 * search (number, tracking number, customer's name or e-mail), with the count of each status
 * (under that search). Keyset paging on (requested_at, id).
 * @throws AppError `unauthorized`, `forbidden` (not staff), `invalid` (a cursor or status not ours).
 */
export async function listShipmentQueue(
  { db, actor }: ServiceContext,
  {
    status,
    cursor,
    q,
    claim = false,
  }: {
    status?: string | null
    cursor?: string | null
    q?: string | null
    /** Only shipments with a claim still to decide (open or investigating; docs/decisions/036). */
    claim?: boolean
  } = {},
): Promise<ShipmentQueuePage> {
  const user = requireActor(actor, SIGNED_IN)
  if (!isStaff(user))
    throw new AppError('forbidden', 'The shipments queue is for staff', { reason: 'staffActionForbidden' })
  if (status && !(SHIPMENT_STATUSES as readonly string[]).includes(status)) {
    throw new AppError('invalid', `Unknown shipment status ${status.slice(0, 40)}`)
  }
  const after = olderThan(shipments.requestedAt, shipments.id, decodeTimeCursor(cursor))
  // A search: the shipment's number or tracking number, or its customer's name or e-mail. Shipments
  // are few beside requests (one per box sent): the condition is checked row by row on the
  // newest-first walk, with the customer joined.
  const search = q?.trim().slice(0, 200)
  const pattern = search ? `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null
  const matching = pattern
    ? or(
        ilike(sql`${shipments.number} collate "C"`, pattern),
        ilike(sql`${shipments.trackingNumber} collate "C"`, pattern),
        ilike(users.name, pattern),
        ilike(users.email, pattern),
      )
    : undefined
  // Claims to decide are few (the partial index claims_open_idx holds only those).
  const claimed = claim
    ? sql`${shipments.id} in (select ${claims.shipmentId} from ${claims} where ${claims.status} in ('open', 'investigating'))`
    : undefined
  const [rows, counts] = await Promise.all([
    db
      .select({ ...summaryColumns, customerName: users.name, customerEmail: users.email })
      .from(shipments)
      .innerJoin(users, eq(users.id, shipments.userId))
      .where(and(status ? eq(shipments.status, status) : undefined, after, matching, claimed))
      .orderBy(...newestFirst(shipments.requestedAt, shipments.id))
      .limit(SHIPMENT_QUEUE_PAGE_SIZE + 1),
    matching
      ? db
          .select({ status: shipments.status, n: count() })
          .from(shipments)
          .innerJoin(users, eq(users.id, shipments.userId))
          .where(matching)
          .groupBy(shipments.status)
      : db.select({ status: shipments.status, n: count() }).from(shipments).groupBy(shipments.status),
  ])
  const page = keysetPage(rows, SHIPMENT_QUEUE_PAGE_SIZE, (row) => row.requestedAt)
  return {
    rows: page.rows.map((row) => ({
      ...summary(row),
      customerName: row.customerName,
      customerEmail: row.customerEmail,
    })),
    nextCursor: page.nextCursor,
    counts: Object.fromEntries(counts.map((row) => [row.status, row.n])),
  }
}

/** The photo of a packed box (or its thumbnail), for the shipment's owner and staff; else `not_found`. */
export async function getBoxPhoto(
  { db, actor }: ServiceContext,
  files: FileStore,
  id: string,
  size: 'full' | 'thumb',
): Promise<{ bytes: Uint8Array; number: string; etag: string }> {
  const user = requireActor(actor, SIGNED_IN)
  if (!isUuid(id)) throw shipmentNotFound(id)
  const [row] = await db
    .select({
      userId: shipments.userId,
      number: shipments.number,
      fileKey: shipments.boxPhotoKey,
      thumbKey: shipments.boxThumbKey,
    })
    .from(shipments)
    .where(eq(shipments.id, id))
  if (!row || !(isStaff(user) || row.userId === user.id)) throw shipmentNotFound(id)
  const key = size === 'thumb' ? row.thumbKey : row.fileKey
  const bytes = key ? await files.get(key) : null
  if (!key || !bytes) throw shipmentNotFound(id)
  // The keys hold a random id per photo: a new photo is a new key, so the key names the bytes.
  return {
    bytes,
    number: row.number,
    etag: `"${createHash('sha256').update(key).digest('hex').slice(0, 32)}"`,
  }
}

/** A shipment's receipts, oldest first (its page lists them; the caller checked who asks). */
export async function receiptsOfShipment(db: Executor, shipmentId: string) {
  return db
    .select({
      id: invoices.id,
      number: invoices.number,
      status: invoices.status,
      totalJpy: invoices.totalJpy,
      creditAppliedJpy: invoices.creditAppliedJpy,
      issuedAt: invoices.issuedAt,
    })
    .from(invoices)
    .where(eq(invoices.shipmentId, shipmentId))
    .orderBy(asc(invoices.issuedAt), asc(invoices.sequence))
}
