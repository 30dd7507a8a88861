import type { ShipmentCosts, ShipmentDocument } from '#app/components/orders/shipment-costs.tsx'
import type { TrackingData } from '#app/components/orders/shipment-tracking.tsx'
import { formatGrams, japanDateTime } from '#app/lib/dates.ts'
import { creditNotesOfShipment } from '#core/billing/credit-notes.ts'
import type { InvoiceStatus } from '#core/billing/invoice-machine.ts'
import { getInvoice } from '#core/billing/invoice-service.ts'
import { formatPhone } from '#core/customers/address-rules.ts'
import { countryName } from '#core/customers/countries.ts'
import { formatMoney, formatPercent } from '#core/money/money.ts'
import type { OrderContext } from '#core/orders/order-context.ts'
import type { Language } from '#core/preferences/preferences.ts'
import type { Settings } from '#core/settings/settings-schema.ts'
import type { ClaimView } from '#core/shipping/claims.ts'
import { receiptsOfShipment, type ShipmentDetail } from '#core/shipping/shipment-service.ts'
import { CARRIER_NAMES, trackingUrl } from '#core/shipping/tracking.ts'
import { storageFeeOf } from '#core/warehouse/storage.ts'

// What both shipment pages write out the same way: the address, the estimate, the packed box,
// the tracking block, the claim, and the costs (estimate, receipt, receipts and credit notes), in
// the page's language (dates in Japan time, yen with Intl).

/** The address as it was when asked: the phone written out, the country's name in the page's language. */
export function shipmentAddressForPage(shipment: ShipmentDetail, language: Language) {
  return {
    ...shipment.address,
    phone: formatPhone(shipment.address.phone),
    countryName: countryName(shipment.address.country, language),
  }
}

/** The estimate the customer saw when asking: its weight and price, written out. */
export function shipmentEstimateForPage(shipment: ShipmentDetail, language: Language) {
  return {
    weight: formatGrams(shipment.estimatedWeightG, language),
    price: formatMoney(shipment.estimatedPriceJpy, 'JPY', language),
  }
}

/**
 * The packed box: its weight, size and price written out, its photo (whole and as a thumbnail,
 * one address for the customer and staff) and the receipt its packing issued, if any. `area`
 * picks the customer's or the staff's link to the receipt.
 */
export function packedBoxForPage(
  shipmentId: string,
  packing: NonNullable<ShipmentDetail['packing']>,
  invoice: { id: string; number: string } | null | undefined,
  { language, area }: { language: Language; area: 'customer' | 'staff' },
) {
  const base = area === 'customer' ? '/user-dashboard' : '/admin-dashboard'
  return {
    weight: formatGrams(packing.weightG, language),
    size: packing.sizeCm,
    price: formatMoney(packing.priceJpy, 'JPY', language),
    photo: packing.hasPhoto
      ? {
          full: `/user-dashboard/shipments/${shipmentId}/box-photo`,
          thumb: `/user-dashboard/shipments/${shipmentId}/box-photo/thumb`,
        }
      : null,
    receipt: invoice ? { href: `${base}/invoices/${invoice.id}`, number: invoice.number } : null,
  }
}

export function trackingForPage(shipment: ShipmentDetail, language: Language): TrackingData | null {
  if (!shipment.tracking) return null
  const when = japanDateTime(language)
  return {
    carrierName: CARRIER_NAMES[shipment.tracking.carrier],
    number: shipment.tracking.number,
    url: trackingUrl(shipment.tracking.carrier, shipment.tracking.number, language),
    shippedLabel: when(shipment.tracking.shippedAt),
    deliveredLabel: shipment.deliveredAt ? when(shipment.deliveredAt) : null,
  }
}

/** `refundSentAt`: when a lost parcel's refund was sent in full (core/payments/money-history.ts). */
export function claimForPage(claim: ClaimView | null, language: Language, refundSentAt: Date | null = null) {
  if (!claim) return null
  const when = japanDateTime(language)
  return {
    id: claim.id,
    status: claim.status,
    version: claim.version,
    customerNote: claim.customerNote,
    carrierReference: claim.carrierReference,
    closeReason: claim.closeReason,
    refund: claim.refundJpy === null ? null : formatMoney(claim.refundJpy, 'JPY', language),
    openedLabel: when(claim.openedAt),
    refundSentLabel: claim.status === 'lost' && refundSentAt ? when(refundSentAt) : null,
  }
}

/**
 * The costs part of both shipment pages (docs/decisions/037): the estimate with its storage
 * fees, the receipt in force with each item's days × the daily fee and the tax, and every receipt
 * and credit note of the shipment. `area` picks the customer's or the staff's links.
 */
export async function shipmentCostsForPage(
  ctx: OrderContext,
  shipment: ShipmentDetail,
  { language, area }: { language: Language; area: 'customer' | 'staff' },
): Promise<ShipmentCosts> {
  const settings = await ctx.settings.get()
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  const rate = formatPercent(settings.taxRate, language)
  const [receipts, credits] = await Promise.all([
    receiptsOfShipment(ctx.db, shipment.id),
    creditNotesOfShipment(ctx.db, shipment.id),
  ])
  const base = area === 'customer' ? '/user-dashboard' : '/admin-dashboard'
  const estimate = estimateForPage(shipment, settings, { language, rate })
  const receipt = await receiptForPage(ctx, shipment, receipts, { base, language })
  const documents = documentsForPage(receipts, credits, { base, language })
  return {
    estimate,
    receipt,
    explanation: {
      freeDays: settings.freeStorageDays,
      fee: yen(settings.storageFeePerDayJpy),
      rate,
    },
    documents,
  }
}

type Receipts = Awaited<ReturnType<typeof receiptsOfShipment>>
type Links = { base: string; language: Language }

/** The estimate the customer saw, with each item's storage while the shipment waits to be packed. */
function estimateForPage(
  shipment: ShipmentDetail,
  settings: Settings,
  { language, rate }: { language: Language; rate: string },
): ShipmentCosts['estimate'] {
  // While it waits to be packed the items' clocks are stopped: their storage is what the
  // estimate counted, item by item.
  const waiting = shipment.status === 'requested'
  const now = new Date()
  const estimateStorage = waiting
    ? shipment.lines
        .map((line) => ({
          id: line.id,
          title: line.title ?? `${line.requestNumber} · ${line.position}`,
          ...storageFeeOf(line, now, settings),
        }))
        .filter((line) => line.days > 0 && line.feePerDayJpy > 0)
    : []
  return {
    weight: formatGrams(shipment.estimatedWeightG, language),
    shippingJpy: shipment.estimatedPriceJpy,
    storage: estimateStorage,
    storageFeeJpy: shipment.estimatedStorageFeeJpy,
    taxJpy: shipment.estimatedTaxJpy,
    taxRateLabel: rate,
    totalJpy: shipment.estimatedPriceJpy + shipment.estimatedStorageFeeJpy + shipment.estimatedTaxJpy,
  }
}

/** The receipt in force (the open one, else the last paid one) of a packed shipment, with its breakdown and credit. */
async function receiptForPage(
  ctx: OrderContext,
  shipment: ShipmentDetail,
  receipts: Receipts,
  { base, language }: Links,
): Promise<ShipmentCosts['receipt']> {
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  const current =
    receipts.find((receipt) => receipt.status === 'open') ??
    [...receipts].reverse().find((receipt) => receipt.status === 'paid') ??
    null
  if (!current || !shipment.packing) return null
  const invoice = await getInvoice(ctx, current.id)
  const storage = invoice.lines
    .filter((line) => line.kind === 'storage_fee')
    .map((line) => ({
      id: String(line.position),
      title: line.description,
      days: line.quantity,
      feePerDayJpy: line.unitPriceJpy,
    }))
  return {
    number: invoice.number,
    href: `${base}/invoices/${invoice.id}`,
    weight: formatGrams(shipment.packing.weightG, language),
    total: yen(invoice.totalJpy),
    breakdown: {
      shippingJpy: invoice.shippingJpy,
      storage,
      storageFeeJpy: invoice.storageFeeJpy,
      taxJpy: invoice.taxJpy,
      taxRateLabel: formatPercent(invoice.taxRateBasisPoints / 10_000, language),
      totalJpy: invoice.totalJpy,
    },
    credit:
      invoice.creditAppliedJpy > 0
        ? {
            amount: yen(invoice.creditAppliedJpy),
            from: invoice.replacesNumber ?? '',
            note: invoice.creditFrom?.number ?? '',
          }
        : null,
    toPay:
      invoice.creditAppliedJpy > 0 && invoice.status === 'open'
        ? yen(invoice.totalJpy - invoice.creditAppliedJpy)
        : null,
  }
}

/** Every receipt and credit note of the shipment, oldest first (a credit note first when issued with a receipt). */
function documentsForPage(
  receipts: Receipts,
  credits: Awaited<ReturnType<typeof creditNotesOfShipment>>,
  { base, language }: Links,
): ShipmentDocument[] {
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  const when = japanDateTime(language)
  const numberOf = new Map(receipts.map((row) => [row.id, row.number]))
  return [
    ...receipts.map((row) => ({
      kind: 'receipt' as const,
      id: row.id,
      number: row.number,
      href: `${base}/invoices/${row.id}`,
      status: row.status as InvoiceStatus,
      amount: yen(row.totalJpy),
      dateLabel: when(row.issuedAt),
      credits: null,
      reason: null,
      at: row.issuedAt.getTime(),
    })),
    ...credits.map((note) => ({
      kind: 'creditNote' as const,
      id: note.id,
      number: note.number,
      href: `${base}/credit-notes/${note.id}`,
      status: null,
      amount: yen(note.totalJpy),
      dateLabel: when(note.issuedAt),
      credits: numberOf.get(note.invoice.id) ?? note.invoice.number,
      reason: note.reason,
      at: note.issuedAt.getTime(),
    })),
  ]
    .sort((a, b) => a.at - b.at || (a.kind === b.kind ? 0 : a.kind === 'creditNote' ? -1 : 1))
    .map(({ at: _at, ...document }) => document)
}
