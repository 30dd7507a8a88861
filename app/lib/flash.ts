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
  // Back from a payment provider's page (app/routes/payments/).
  'paymentReceived',
  'paymentPending',
  'paymentFailed',
  'paymentCancelled',
  'paymentReview',
] as const
export type FlashMessage = (typeof FLASH_MESSAGES)[number]

export function parseFlash(value: unknown): FlashMessage | null {
  return FLASH_MESSAGES.find((message) => message === value) ?? null
}
