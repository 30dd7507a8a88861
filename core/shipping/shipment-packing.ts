import { randomUUID } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { recordAudit } from '#core/audit/audit-log.ts'
import {
  chargedStorage,
  type ShippingReceiptTotals,
  shippingReceiptTotals,
} from '#core/billing/receipt-totals.ts'
import { issueShippingInvoice, type StorageFeeLine } from '#core/billing/shipping-receipt.ts'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { importEstimateParams } from '#core/landed-cost/customer-estimate.ts'
import { customsRatesOf } from '#core/landed-cost/landed-cost.ts'
import { notifyCustomer } from '#core/notifications/notify.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import { type RateTables, shippingPrice, WEIGHT_LIMITS } from '#core/pricing/pricing.ts'
import { basisPointsOf } from '#core/pricing/quote-pricing.ts'
import type { Settings } from '#core/settings/settings-schema.ts'
import { requireConfirmation } from '#core/shared/confirmation.ts'
import { AppError } from '#core/shared/errors.ts'
import type { OrderActor } from '#core/shared/history.ts'
import { parse, staffActor } from '#core/shared/order-input.ts'
import { removePhotos, type StoredPhoto, storePhotos } from '#core/uploads/stored-photos.ts'
import { storageFeeOf } from '#core/warehouse/storage.ts'
import type { Executor } from '#db/client.ts'
import { purchaseRequests, requestItems, shipmentItems, shipments, users } from '#db/schema/index.ts'
import { receiptImportEstimate } from './import-estimate.ts'
import { applyShipmentEvent } from './shipment-events.ts'
import { PACKING_LIMITS, PackShipmentSchema } from './shipment-schemas.ts'

/**
 * Packing (docs/decisions/029): staff weigh and pack a requested shipment, and that issues its
 * shipping receipt. The price is the rate table's for the shipment's region, method and the box's
 * weight; staff may charge another only with a reason, which goes to the audit log, and after
 * confirming it with the receipt's amounts in front of them (docs/decisions/037: `previewPacking`
 * gives those amounts). Storage fees are added for each item kept past its free period (days ×
 * the daily fee setting). One
 * transaction: the receipt, the shipment `packed` with its history row, the audit record and the
 * customer's notification with the link to pay. The box's photo is written before it and removed
 * if it refuses.
 */

function fieldError(field: string, message: string, reason = 'shipmentInvalid'): AppError {
  return new AppError('invalid', `Packing refused: ${field} ${message}`, {
    reason,
    fieldErrors: { [field]: [message] },
  })
}

export type PackedShipment = { invoiceId: string; invoiceNumber: string; totalJpy: number; version: number }

/**
 * @throws AppError `unauthorized`, `forbidden` (not staff who handle the warehouse), `invalid`
 * (field errors: weight over the method's limit, size, price without a reason or with no rate,
 * photo), `not_found`, `conflict` (`shipmentChanged`: a stale page; `shipmentNotAllowed`: not
 * waiting to be packed).
 */
export async function packShipment(
  { db, actor, jobs, files, settings }: OrderContext,
  input: unknown,
  rates: RateTables,
  photos: readonly Blob[] = [],
): Promise<PackedShipment> {
  const staff = staffActor(actor, 'handle_arrivals')
  const data = parse(PackShipmentSchema, input, 'shipmentInvalid')
  const stored = await storePhotos(files, {
    prefix: `shipments/${data.id}/${randomUUID()}`,
    uploads: photos,
    max: PACKING_LIMITS.photos,
    reason: 'shipmentInvalid',
  })
  try {
    const config = await settings.get()
    return await db.transaction((tx) => packWithin(tx, jobs, staff, data, rates, config, stored))
  } catch (error) {
    await removePhotos(files, stored)
    throw error
  }
}

type PackingInput = z.output<typeof PackShipmentSchema>

/**
 * In the packing's transaction: locks the shipment, prices the box, issues the receipt, moves the
 * shipment to `packed` with its history, audits a price override and tells the customer.
 */
async function packWithin(
  tx: Executor,
  jobs: AppJobEnqueuer,
  staff: OrderActor,
  data: PackingInput,
  rates: RateTables,
  config: Settings,
  stored: readonly StoredPhoto[],
): Promise<PackedShipment> {
  const shipment = await lockShipmentToPack(tx, data)
  const { ratePrice, priceJpy, overridden } = priceOfPacking(shipment, data, rates)

  const now = new Date()
  const storage = await storageOfShipment(tx, shipment.id, now, config, { lock: true })
  const invoice = await issueShipmentReceipt(tx, shipment, {
    shippingJpy: priceJpy,
    storage,
    settings: config,
    actor: staff,
    issuedAt: now,
  })
  const photo = stored[0]
  const applied = await applyShipmentEvent(tx, {
    shipmentId: shipment.id,
    event: 'pack',
    actor: staff,
    expectedVersion: data.version,
    set: {
      packedWeightG: data.weight,
      lengthCm: data.length ?? null,
      widthCm: data.width ?? null,
      heightCm: data.height ?? null,
      ratePriceJpy: ratePrice,
      priceJpy,
      priceReason: overridden ? (data.reason ?? null) : null,
      boxPhotoKey: photo?.fileKey ?? null,
      boxThumbKey: photo?.thumbKey ?? null,
      packedAt: now,
    },
    data: {
      weightG: data.weight,
      priceJpy,
      storageFeeJpy: invoice.storageFeeJpy,
      invoiceNumber: invoice.number,
    },
  })
  if (overridden) {
    await recordAudit(tx, {
      actorId: staff.id,
      kind: 'shipment.price_override',
      subject: { type: 'shipment', id: shipment.id },
      before: { priceJpy: ratePrice },
      after: { priceJpy, reason: data.reason ?? null, shipment: shipment.number, weightG: data.weight },
    })
  }
  await notifyCustomer(tx, jobs, {
    userId: shipment.userId,
    type: 'shipment_packed',
    // Without a photo of the box, the texts do not ask the customer to look at one (ADR 038).
    params: {
      number: shipment.number,
      totalJpy: invoice.totalJpy,
      ...importEstimateParams(invoice.importEstimate),
      ...(stored.length === 0 ? { variant: 'noPhoto' } : {}),
    },
    link: `/user-dashboard/shipments/${shipment.id}`,
  })
  return {
    invoiceId: invoice.id,
    invoiceNumber: invoice.number,
    totalJpy: invoice.totalJpy,
    version: applied.version,
  }
}

/** Locks the shipment to pack; refuses one missing, changed since the page or not waiting to be packed. */
async function lockShipmentToPack(tx: Executor, data: PackingInput) {
  const [shipment] = await tx
    .select({
      id: shipments.id,
      number: shipments.number,
      userId: shipments.userId,
      status: shipments.status,
      version: shipments.version,
      method: shipments.method,
      region: shipments.region,
      locale: shipments.locale,
    })
    .from(shipments)
    .where(eq(shipments.id, data.id))
    .for('update')
  if (!shipment) {
    throw new AppError('not_found', `Shipment ${data.id} not found`, { reason: 'shipmentNotFound' })
  }
  if (shipment.version !== data.version) {
    throw new AppError('conflict', `Shipment ${shipment.number} changed`, { reason: 'shipmentChanged' })
  }
  if (shipment.status !== 'requested') {
    throw new AppError('conflict', `Shipment ${shipment.number} is ${shipment.status}`, {
      reason: 'shipmentNotAllowed',
    })
  }
  return shipment
}

/**
 * The box's price: the rate table's for its method, region and weight, or the one staff charge
 * instead (with a reason, confirmed); refuses a box over the method's weight limit.
 */
function priceOfPacking(
  shipment: { number: string; method: string; region: string },
  data: PackingInput,
  rates: RateTables,
) {
  const method = shipment.method === 'express' ? 'express' : 'economic'
  if (data.weight > WEIGHT_LIMITS[method].maxG) throw fieldError('weight', `packedTooHeavy.${method}`)
  const table = rates[method]
  const ratePriceJpy = shippingPrice(
    table,
    shipment.region as Parameters<typeof shippingPrice>[1],
    data.weight,
  )
  const ratePrice = ratePriceJpy !== null && ratePriceJpy > 0 ? ratePriceJpy : null
  const priceJpy = data.price ?? ratePrice
  if (priceJpy === null) throw fieldError('price', 'priceNoRate')
  const overridden = priceJpy !== ratePrice
  if (overridden && !data.reason) throw fieldError('reason', 'reasonRequired')
  // Another price than the table's moves money: the page showed the amounts and staff ticked
  // the box (the route answers this refusal with those amounts).
  if (overridden) {
    requireConfirmation(
      data.confirm,
      `Packing ${shipment.number} at ¥${priceJpy}`,
      'priceConfirmationRequired',
    )
  }
  return { ratePrice, priceJpy, overridden }
}

/** The items of a shipment with what their storage charges on `now` (their clock stopped when reserved). */
async function storageOfShipment(
  tx: Executor,
  shipmentId: string,
  now: Date,
  config: Pick<Settings, 'freeStorageDays' | 'storageFeePerDayJpy'>,
  { lock }: { lock: boolean },
): Promise<StorageFeeLine[]> {
  const query = tx
    .select({
      id: requestItems.id,
      title: requestItems.title,
      position: requestItems.position,
      requestNumber: purchaseRequests.number,
      receivedAt: requestItems.receivedAt,
      reservedAt: requestItems.reservedAt,
      pausedDays: requestItems.storagePausedDays,
    })
    .from(shipmentItems)
    .innerJoin(requestItems, eq(requestItems.id, shipmentItems.itemId))
    .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestItems.requestId))
    .where(and(eq(shipmentItems.shipmentId, shipmentId), eq(shipmentItems.active, true)))
    .orderBy(asc(purchaseRequests.number), asc(requestItems.position))
  const items = lock ? await query.for('update', { of: requestItems }) : await query
  return items.map((item) => {
    const fee = storageFeeOf(item, now, config)
    return {
      itemId: item.id,
      title: item.title ?? `${item.requestNumber} · ${item.position}`,
      days: fee.days,
      feePerDayJpy: fee.feePerDayJpy,
    }
  })
}

export type PackingPreview = {
  number: string
  weightG: number
  /** The rate table's price for this weight (null: the table has no row). */
  ratePriceJpy: number | null
  priceJpy: number
  /** The items that pay storage, and the receipt's totals (`shippingReceiptTotals`). */
  storage: StorageFeeLine[]
  totals: ShippingReceiptTotals
}

/**
 * What packing with this input would issue, writing nothing: the rate table's price, the price
 * charged, the storage lines and the receipt's totals, by the same pricing as `packShipment`.
 * The staff page shows it when a price other than the table's waits for confirmation.
 * @throws AppError as `packShipment` for the input and who asks.
 */
export async function previewPacking(
  { db, actor, settings }: OrderContext,
  input: unknown,
  rates: RateTables,
): Promise<PackingPreview> {
  staffActor(actor, 'handle_arrivals')
  const data = parse(PackShipmentSchema, input, 'shipmentInvalid')
  const config = await settings.get()
  const [shipment] = await db
    .select({ number: shipments.number, method: shipments.method, region: shipments.region })
    .from(shipments)
    .where(eq(shipments.id, data.id))
  if (!shipment)
    throw new AppError('not_found', `Shipment ${data.id} not found`, { reason: 'shipmentNotFound' })
  const method = shipment.method === 'express' ? 'express' : 'economic'
  const rated = shippingPrice(
    rates[method],
    shipment.region as Parameters<typeof shippingPrice>[1],
    data.weight,
  )
  const ratePriceJpy = rated !== null && rated > 0 ? rated : null
  const priceJpy = data.price ?? ratePriceJpy ?? 0
  const storage = chargedStorage(await storageOfShipment(db, data.id, new Date(), config, { lock: false }))
  return {
    number: shipment.number,
    weightG: data.weight,
    ratePriceJpy,
    priceJpy,
    storage,
    totals: shippingReceiptTotals(priceJpy, storage, basisPointsOf(config.taxRate)),
  }
}

/**
 * Issues a shipment's shipping receipt to its customer (name and e-mail as they are now), in the
 * caller's transaction: on packing, and again when staff re-issue it (receipt-reissue.ts). The
 * receipt freezes the import estimate of the box (its items at their paid prices and this
 * shipping price, to the shipment's country) under the rules in effect that day (issue 30).
 */
export async function issueShipmentReceipt(
  tx: Executor,
  shipment: { id: string; number: string; userId: string; locale: string },
  receipt: Omit<Parameters<typeof issueShippingInvoice>[1], 'shipment' | 'recipient' | 'importEstimate'> & {
    settings: Pick<Settings, 'yenRates' | 'customsRates'>
  },
) {
  const [customer] = await tx
    .select({ name: users.name, email: users.email, country: shipments.country })
    .from(users)
    .innerJoin(shipments, eq(shipments.id, shipment.id))
    .where(eq(users.id, shipment.userId))
  if (!customer) throw new Error(`Shipment ${shipment.number} has no customer`)
  const importEstimate = await receiptImportEstimate(tx, {
    shipmentId: shipment.id,
    country: customer.country,
    shippingJpy: receipt.shippingJpy,
    rates: customsRatesOf(receipt.settings),
    issuedAt: receipt.issuedAt,
  })
  const issued = await issueShippingInvoice(tx, {
    shipment: {
      id: shipment.id,
      number: shipment.number,
      userId: shipment.userId,
      locale: shipment.locale === 'en' ? 'en' : 'es',
    },
    recipient: { name: customer.name, email: customer.email },
    ...receipt,
    importEstimate,
  })
  return { ...issued, importEstimate }
}
