/** One-shot messages carried across a redirect (shown once as a toast); the flash cookie holds one. */
export const FLASH_MESSAGES = [
  'signedIn',
  'signedOut',
  'signOutFailed',
  'accountDeleted',
  'verificationSent',
  'resetLinkSent',
  'passwordUpdated',
  'settingsSaved',
  'ratesSaved',
  'storeSaved',
  'storeHidden',
  'storeShown',
  'storeMoved',
  'pageSaved',
  // Back from a payment provider's page (app/routes/payments/).
  'paymentReceived',
  'paymentPending',
  'paymentFailed',
  'paymentCancelled',
  'paymentReview',
  // docs/decisions/034: each money event its own message.
  'shippingPaymentReceived',
  'paymentDuplicate',
  'paymentReturned',
] as const
export type FlashMessage = (typeof FLASH_MESSAGES)[number]

/**
 * What the customer is told on coming back from the provider's page, by what became of the
 * payment and what it paid for: a quote (the items are bought next) or a shipping receipt (the
 * box is handed to the carrier next). Pending, declined and held read the same for both.
 */
export function paymentReturnMessage(
  status: 'pending' | 'succeeded' | 'failed' | 'held' | 'duplicate' | 'refunded',
  owner: 'request' | 'shipment',
): FlashMessage {
  switch (status) {
    case 'succeeded':
      return owner === 'shipment' ? 'shippingPaymentReceived' : 'paymentReceived'
    case 'pending':
      return 'paymentPending'
    case 'failed':
      return 'paymentFailed'
    case 'held':
      return 'paymentReview'
    case 'duplicate':
      return 'paymentDuplicate'
    case 'refunded':
      return 'paymentReturned'
  }
}

export function parseFlash(value: unknown): FlashMessage | null {
  return FLASH_MESSAGES.find((message) => message === value) ?? null
}
