import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import type { Executor } from '#db/client.ts'
import { notifications } from '#db/schema/index.ts'

/**
 * What we tell a customer, in the app and by e-mail, and what we tell staff by e-mail. The texts
 * live in the locale files under `customerNotifications.<type>` and `staffNotifications.<type>`
 * (title and body, with these params): one text for the in-app list and the e-mail.
 */
export const CUSTOMER_NOTIFICATION_TONES = {
  request_received: 'info',
  quote_ready: 'success',
  request_rejected: 'warning',
  request_cancelled: 'info',
  payment_received: 'success',
  payment_review: 'warning',
  quote_expired: 'warning',
  quote_reminder: 'info',
  quote_revised: 'info',
  payment_refunding: 'info',
  staff_message: 'info',
  items_arrived: 'success',
  item_unavailable: 'warning',
  shipment_cancelled: 'info',
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
