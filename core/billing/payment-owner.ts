/**
 * What an invoice charges for, and where people see it. Pure (no database), so pages can link to
 * an invoice's owner without bringing the payment service into the browser.
 */

/** What an invoice charges for: a purchase request (the quote) or a shipment (the shipping receipt). */
export type PaymentOwner = { kind: 'request'; id: string } | { kind: 'shipment'; id: string }

/** Where the customer and staff see an invoice's owner (and its payments). */
export function ownerPaths(owner: PaymentOwner): { customer: string; staff: string } {
  return owner.kind === 'request'
    ? { customer: `/user-dashboard/requests/${owner.id}`, staff: `/admin-dashboard/requests/${owner.id}` }
    : { customer: `/user-dashboard/shipments/${owner.id}`, staff: `/admin-dashboard/shipments/${owner.id}` }
}

export function ownerOf(row: { requestId: string | null; shipmentId: string | null }): PaymentOwner {
  if (row.requestId) return { kind: 'request', id: row.requestId }
  if (row.shipmentId) return { kind: 'shipment', id: row.shipmentId }
  throw new Error('An invoice without a request or a shipment')
}
