import type { ParseKeys } from 'i18next'

/**
 * The one notice channel (docs/decisions/010): what a visitor is told after a change. An action
 * ends with `redirectWithNotice(context, url, notice)` (./notice.server.ts); the notice rides in
 * the one-shot `flash` cookie across the redirect, the root loader translates it in the visitor's
 * language, and `NoticeToast` (app/components/notice-toast.tsx) shows it: server-rendered, so it
 * works without JavaScript too. Every notice is declared here once: its title, its optional
 * description and whether it tells of a failure (shown as an alert in the destructive style).
 */
type NoticeSpec = {
  title: ParseKeys
  text?: ParseKeys
  failure?: true
  /**
   * Parameters that name something the catalogue translates (a role): the key prefix each is
   * read under (`{ role: 'session.roles.' }` shows `session.roles.moderator`, in the reader's
   * language). Only a plain word is looked up.
   */
  terms?: Record<string, string>
}

export const NOTICES = {
  // Accounts (app/routes/auth/, the profile).
  signedIn: { title: 'toasts.signedIn.title', text: 'toasts.signedIn.text' },
  signedOut: { title: 'toasts.signedOut.title', text: 'toasts.signedOut.text' },
  signOutFailed: { title: 'toasts.signOutFailed.title', text: 'toasts.signOutFailed.text', failure: true },
  accountDeleted: { title: 'toasts.accountDeleted.title', text: 'toasts.accountDeleted.text' },
  verificationSent: { title: 'toasts.verificationSent.title', text: 'toasts.verificationSent.text' },
  resetLinkSent: { title: 'toasts.resetLinkSent.title', text: 'toasts.resetLinkSent.text' },
  passwordUpdated: { title: 'toasts.passwordUpdated.title', text: 'toasts.passwordUpdated.text' },
  profileSaved: { title: 'profile.done.saved' },
  addressAdded: { title: 'profile.done.addressAdded' },
  addressSaved: { title: 'profile.done.addressSaved' },
  addressDeleted: { title: 'profile.done.addressDeleted' },
  defaultAddressChanged: { title: 'profile.done.defaultChanged' },
  // WhatsApp updates (app/routes/customer/whatsapp.tsx, docs/decisions/049).
  whatsappCodeSent: { title: 'whatsapp.done.codeSent' },
  whatsappOn: { title: 'whatsapp.done.on' },
  whatsappSaved: { title: 'whatsapp.done.saved' },
  whatsappStopped: { title: 'whatsapp.done.stopped' },
  // The admin panel's settings, rates, stores and pages.
  settingsSaved: { title: 'toasts.settingsSaved.title', text: 'toasts.settingsSaved.text' },
  ratesSaved: { title: 'toasts.ratesSaved.title', text: 'toasts.ratesSaved.text' },
  storeSaved: { title: 'toasts.storeSaved.title', text: 'toasts.storeSaved.text' },
  storeHidden: { title: 'toasts.storeHidden.title', text: 'toasts.storeHidden.text' },
  storeShown: { title: 'toasts.storeShown.title', text: 'toasts.storeShown.text' },
  storeMoved: { title: 'toasts.storeMoved.title', text: 'toasts.storeMoved.text' },
  pageSaved: { title: 'toasts.pageSaved.title', text: 'toasts.pageSaved.text' },
  // Import rules and destination methods (app/routes/admin/import-rule.tsx, issue 30).
  importRuleSaved: { title: 'importRules.saved' },
  destinationMethodSaved: { title: 'importRules.methodSaved' },
  factorRemoved: { title: 'mfa.factorRemoved' },
  userSignedOut: { title: 'adminUsers.done.signedOut' },
  userDisabled: { title: 'adminUsers.done.disabled' },
  userEnabled: { title: 'adminUsers.done.enabled' },
  roleAssigned: {
    title: 'roles.assignedTitle',
    text: 'roles.assignedText',
    terms: { role: 'session.roles.' },
  },
  // Back from a payment provider's page (app/routes/payments/); docs/decisions/034: each money
  // event its own message.
  paymentReceived: { title: 'toasts.paymentReceived.title', text: 'toasts.paymentReceived.text' },
  shippingPaymentReceived: {
    title: 'toasts.shippingPaymentReceived.title',
    text: 'toasts.shippingPaymentReceived.text',
  },
  paymentPending: { title: 'toasts.paymentPending.title', text: 'toasts.paymentPending.text' },
  paymentFailed: { title: 'toasts.paymentFailed.title', text: 'toasts.paymentFailed.text', failure: true },
  paymentCancelled: { title: 'toasts.paymentCancelled.title', text: 'toasts.paymentCancelled.text' },
  paymentReview: { title: 'toasts.paymentReview.title', text: 'toasts.paymentReview.text' },
  paymentDuplicate: { title: 'toasts.paymentDuplicate.title', text: 'toasts.paymentDuplicate.text' },
  paymentReturned: { title: 'toasts.paymentReturned.title', text: 'toasts.paymentReturned.text' },
  // The notifications list (the customer's and the staff's).
  notificationRead: { title: 'notificationsPage.markedOne' },
  notificationsAllRead: { title: 'notificationsPage.markedAll' },
  // A customer's requests and shipments.
  requestSent: { title: 'requests.sent' },
  // Staff read an item's link again (issue 31).
  linkReadAgain: { title: 'linkPreview.readAgainDone' },
  linkNotRead: { title: 'linkPreview.readAgainFailed' },
  requestCancelled: { title: 'requests.cancelled' },
  transferReported: { title: 'payment.transfer.reported' },
  voucherIssued: { title: 'payment.voucher.issued' },
  shipmentRequested: { title: 'shipments.requested' },
  shipmentCancelled: { title: 'shipments.cancelledNotice' },
  deliveryConfirmed: { title: 'shipments.confirmed' },
  parcelClaimed: { title: 'shipments.claimed' },
  // Staff on a request.
  quoteSaved: { title: 'quote.saved' },
  quoteApproved: { title: 'quote.approved' },
  quoteRejected: { title: 'quote.rejected' },
  quoteRevised: { title: 'quote.revised' },
  noteAdded: { title: 'quote.noteAdded' },
  requestCancelledByStaff: { title: 'quote.cancelDone' },
  itemsOrdered: { title: 'arrival.markedOrdered' },
  itemsReceived: { title: 'arrival.booked' },
  itemUnavailable: { title: 'arrival.unavailableDone' },
  // Staff on a shipment, and the warehouse.
  shipmentPacked: { title: 'staffShipments.packed' },
  shipmentShipped: { title: 'staffShipments.shippedNotice' },
  shipmentDelivered: { title: 'staffShipments.deliveredNotice' },
  claimSaved: { title: 'staffShipments.claimSaved' },
  shipmentCancelledByStaff: { title: 'staffShipments.cancelled' },
  receiptReissued: { title: 'staffShipments.reissue.done' },
  itemDisposed: { title: 'overdue.disposed' },
  // Staff on a payment (app/components/orders/staff-payments.tsx), by what it paid for.
  paymentRecorded: { title: 'payments.record.recorded' },
  shippingPaymentRecorded: { title: 'payments.notices.recordedShipment' },
  refundMarked: { title: 'payments.notices.refundMarked' },
  refundSent: { title: 'payments.notices.refundSent' },
  refundPending: { title: 'payments.notices.refundPending' },
  heldPaymentAccepted: { title: 'payments.held.accepted' },
  heldShippingPaymentAccepted: { title: 'payments.notices.acceptedShipment' },
  heldPaymentRefunding: { title: 'payments.held.refunding' },
  transferDismissed: { title: 'payments.transfer.dismissed' },
  // A message in a request's or shipment's conversation, and staff taking one (ADR 048).
  messageSent: { title: 'conversation.sentNotice' },
  staffMessageSent: { title: 'staffConversation.sentNotice' },
  conversationAssigned: { title: 'staffConversation.assignedNotice' },
  conversationUnassigned: { title: 'staffConversation.unassignedNotice' },
  // The customer balance (docs/decisions/050).
  balancePaid: { title: 'balance.pay.paid' },
  balancePartPaid: { title: 'balance.pay.partPaid' },
  balanceTopUpRecorded: { title: 'staffBalance.notices.topUpRecorded' },
  balanceAdjusted: { title: 'staffBalance.notices.adjusted' },
  refundedToBalance: { title: 'staffBalance.notices.refundedToBalance' },
  refundedToMyBalance: { title: 'balance.refundedToMine' },
} as const satisfies Record<string, NoticeSpec>

export type NoticeName = keyof typeof NOTICES
/** What a notice's text names (a request's number, an invoice's): short plain strings. */
export type NoticeParams = Record<string, string>
export type Notice = { name: NoticeName; params?: NoticeParams }
/** A notice as the page shows it, translated on the server. */
export type ShownNotice = { title: string; text: string | null; failure: boolean }

const NAMES = new Set<string>(Object.keys(NOTICES))
const PARAM_NAME = /^[a-zA-Z]{1,24}$/
const MAX_PARAMS = 4
const MAX_PARAM_LENGTH = 120

function isNoticeName(value: unknown): value is NoticeName {
  return typeof value === 'string' && NAMES.has(value)
}

/** The flash cookie's value: the bare name, or the name and its parameters as JSON. */
export function serializeNotice(notice: Notice | NoticeName): string {
  const { name, params } = typeof notice === 'string' ? { name: notice, params: undefined } : notice
  return params && Object.keys(params).length > 0 ? JSON.stringify({ name, params }) : name
}

/**
 * Reads the flash cookie's value: a known name, with at most a few short string parameters;
 * anything else (a cookie written by hand, an older site's notice) is no notice at all.
 */
export function parseNotice(value: unknown): Notice | null {
  if (isNoticeName(value)) return { name: value }
  if (typeof value !== 'string' || !value.startsWith('{')) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const { name, params } = parsed as { name?: unknown; params?: unknown }
  if (!isNoticeName(name)) return null
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return { name }
  const entries = Object.entries(params)
  if (entries.length > MAX_PARAMS) return null
  for (const [key, text] of entries) {
    if (!PARAM_NAME.test(key) || typeof text !== 'string' || text.length > MAX_PARAM_LENGTH) return null
  }
  return { name, params: Object.fromEntries(entries) as NoticeParams }
}

/**
 * What the customer is told on coming back from the provider's page, by what became of the
 * payment and what it paid for: a quote (the items are bought next) or a shipping receipt (the
 * box is handed to the carrier next). Pending, declined and held read the same for both.
 */
export function paymentReturnNotice(
  status: 'pending' | 'succeeded' | 'failed' | 'held' | 'duplicate' | 'refunded',
  owner: 'request' | 'shipment',
): NoticeName {
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
