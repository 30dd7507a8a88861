import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import type { Executor } from '#db/client.ts'
import { notifications } from '#db/schema/index.ts'

/**
 * What we tell a customer, in the app and by e-mail, and what we tell staff by e-mail. The texts
 * live in the locale files under `customerNotifications.<type>` and `staffNotifications.<type>`
 * (title and body, with these params): one text for the in-app list and the e-mail. A type may
 * also have a `reason` text, shown after the body when the notification carries a `reason`
 * param (who cancelled and why, docs/decisions/037): `notificationParts`.
 */
export const CUSTOMER_NOTIFICATION_TONES = {
  request_received: 'info',
  quote_ready: 'success',
  request_rejected: 'warning',
  // Cancelled by the customer themselves, or by staff (with the reason, docs/decisions/037).
  request_cancelled: 'info',
  request_cancelled_by_staff: 'warning',
  payment_received: 'success',
  payment_review: 'warning',
  quote_expired: 'warning',
  quote_reminder: 'info',
  quote_revised: 'info',
  payment_refunding: 'info',
  staff_message: 'info',
  items_arrived: 'success',
  item_unavailable: 'warning',
  shipment_cancelled: 'warning',
  shipment_cancelled_by_you: 'info',
  // A shipping receipt re-issued at a corrected price: the new one to pay, a refund due, or the
  // rest to pay after a paid one (docs/decisions/037).
  receipt_reissued: 'info',
  receipt_reissued_refund: 'info',
  receipt_reissued_topay: 'warning',
  shipment_packed: 'success',
  shipment_paid: 'success',
  shipment_shipped: 'success',
  shipment_delivered: 'success',
  claim_opened: 'info',
  claim_investigating: 'info',
  claim_lost: 'warning',
  claim_closed: 'info',
  item_disposed: 'warning',
  storage_reminder: 'warning',
  storage_ended: 'warning',
} as const
export type CustomerNotificationType = keyof typeof CUSTOMER_NOTIFICATION_TONES
export const CUSTOMER_NOTIFICATION_TYPES = Object.keys(
  CUSTOMER_NOTIFICATION_TONES,
) as CustomerNotificationType[]

export const STAFF_NOTIFICATION_TYPES = [
  'new_request',
  'payment_held',
  'refund_due',
  'request_cancelled',
  'new_shipment',
  'new_claim',
] as const
export type StaffNotificationType = (typeof STAFF_NOTIFICATION_TYPES)[number]

export type NotificationParams = Record<string, string | number>

/**
 * Tells a customer, inside the caller's transaction: the in-app row, and the e-mail job that
 * sends it in the customer's language (at most once, retried). A rolled-back change tells no one.
 */
export async function notifyCustomer(
  tx: Executor,
  jobs: AppJobEnqueuer,
  input: {
    userId: string
    type: CustomerNotificationType
    params?: NotificationParams
    requestId?: string | null
    /** A path of this site; by default the request's page. */
    link?: string | null
  },
): Promise<string> {
  const link = input.link ?? (input.requestId ? `/user-dashboard/requests/${input.requestId}` : null)
  const [row] = await tx
    .insert(notifications)
    .values({
      userId: input.userId,
      tone: CUSTOMER_NOTIFICATION_TONES[input.type],
      type: input.type,
      params: input.params ?? {},
      link,
      requestId: input.requestId ?? null,
    })
    .returning({ id: notifications.id })
  if (!row) throw new Error('Unable to store a notification: no row returned')
  await jobs.enqueue(tx, 'notification.email', { notificationId: row.id })
  return row.id
}

/** Tells staff (every admin and moderator, each in their language) by e-mail, in the caller's transaction. */
export async function notifyStaff(
  tx: Executor,
  jobs: AppJobEnqueuer,
  input: { type: StaffNotificationType; params?: NotificationParams; link: string },
): Promise<void> {
  await jobs.enqueue(tx, 'notification.staff-email', {
    type: input.type,
    params: input.params ?? {},
    link: input.link,
  })
}

/**
 * The texts of a notification, in order: its title, its body, and its `reason` line when it
 * carries a non-empty `reason` param and its type has that text (`hasText` says which keys exist).
 * The in-app list and the e-mail both render these.
 */
export function notificationParts(
  params: NotificationParams,
  hasText: (part: 'reason') => boolean,
): ('title' | 'body' | 'reason')[] {
  const reason = params.reason
  return typeof reason === 'string' && reason.trim() !== '' && hasText('reason')
    ? ['title', 'body', 'reason']
    : ['title', 'body']
}
