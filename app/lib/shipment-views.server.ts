import type { TrackingData } from '#app/components/orders/shipment-tracking.tsx'
import { japanDateTime } from '#app/lib/dates.ts'
import { formatMoney } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import type { ClaimView } from '#core/shipping/claims.ts'
import type { ShipmentDetail } from '#core/shipping/shipment-service.ts'
import { CARRIER_NAMES, trackingUrl } from '#core/shipping/tracking.ts'

// What both shipment pages write out the same way: the tracking block and the claim, in the
// page's language (dates in Japan time, yen with Intl).

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
