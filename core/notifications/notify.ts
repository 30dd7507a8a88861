import { sql } from 'drizzle-orm'
import type { AppJobEnqueuer } from '#core/jobs/registry.ts'
import { can, type StaffAction } from '#core/shared/staff-policy.ts'
import { queueWhatsApp } from '#core/whatsapp/dispatch.ts'
import type { Executor } from '#db/client.ts'
import { notifications, users } from '#db/schema/index.ts'

/**
 * What we tell a customer, and what we tell staff, in the app and by e-mail. The texts live in
 * the locale files under `customerNotifications.<type>` and `staffNotifications.<type>` (title
 * and body, with these params): one text for the in-app list and the e-mail. A type may also
 * have a `reason` text, shown after the body when the notification carries a `reason` param (who
 * cancelled and why, docs/decisions/037): `notificationParts`.
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
  refund_sent: 'success',
  refund_confirmed: 'success',
  request_completed: 'success',
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
  // An admin looked for the bank transfer the customer reported and it has not arrived (ADR 036).
  transfer_not_received: 'warning',
  // Staff wrote in the conversation of a request or shipment (docs/decisions/048); its e-mail is
  // the conversation's grouped one (job `conversation.email`), not one per message.
  new_message: 'info',
  // The customer balance (docs/decisions/050): a top-up recorded, a refund sent to the balance.
  balance_topped_up: 'success',
  refund_to_balance: 'success',
  // A voucher or code to pay at a shop, a bank or by PIX (docs/decisions/051): issued, then expired
  // unpaid.
  payment_voucher: 'info',
  payment_voucher_expired: 'warning',
} as const
export type CustomerNotificationType = keyof typeof CUSTOMER_NOTIFICATION_TONES
export const CUSTOMER_NOTIFICATION_TYPES = Object.keys(
  CUSTOMER_NOTIFICATION_TONES,
) as CustomerNotificationType[]

/**
 * What we tell staff, in their own list (the bell, `/admin-dashboard/notifications`) and by
 * e-mail, and which staff action a notice is for: it goes to the staff who may take that action
 * (core/shared/staff-policy.ts), so moderators are not told of money only admins may touch.
 * docs/decisions/036.
 */
export const STAFF_NOTIFICATIONS = {
  // A customer sent links to quote.
  new_request: { tone: 'info', action: 'approve_quote' },
  // A provider reported money we could not take as the invoice's (another amount, currency…).
  payment_held: { tone: 'warning', action: 'record_payment' },
  // Money to give back (a second payment, an overpayment, a lost parcel's half).
  refund_due: { tone: 'warning', action: 'record_payment' },
  // The customer cancelled before paying: nothing to buy.
  request_cancelled: { tone: 'info', action: 'view_requests' },
  // A customer asked to ship items: a box to pack.
  new_shipment: { tone: 'info', action: 'handle_arrivals' },
  // The customer cancelled a shipment before it left: its box is not to be packed or sent.
  shipment_cancelled_by_customer: { tone: 'info', action: 'handle_arrivals' },
  // A parcel reported lost.
  new_claim: { tone: 'warning', action: 'handle_arrivals' },
  // A quote paid online: its items are ours to buy.
  quote_paid: { tone: 'success', action: 'handle_arrivals' },
  // A shipping receipt paid online: the box is ready to hand to the carrier.
  shipping_paid: { tone: 'success', action: 'handle_arrivals' },
  // The customer says they paid by bank transfer: find it and record it, or say it has not come.
  transfer_reported: { tone: 'info', action: 'record_payment' },
  // A customer wrote in the conversation of a request or shipment (docs/decisions/048); e-mailed
  // grouped by the conversation's own job, not one per message.
  customer_message: { tone: 'info', action: 'write_note' },
} as const satisfies Record<string, { tone: 'info' | 'success' | 'warning'; action: StaffAction }>
export type StaffNotificationType = keyof typeof STAFF_NOTIFICATIONS
export const STAFF_NOTIFICATION_TYPES = Object.keys(STAFF_NOTIFICATIONS) as [
  StaffNotificationType,
  ...StaffNotificationType[],
]

/** The staff roles told of this type: those whose policy allows its action. */
export function staffRolesFor(type: StaffNotificationType): ('admin' | 'moderator')[] {
  const { action } = STAFF_NOTIFICATIONS[type]
  return (['admin', 'moderator'] as const).filter((role) => can({ id: '', role }, action))
}

export type NotificationParams = Record<string, string | number>

/**
 * Tells a customer, inside the caller's transaction: the in-app row, and the e-mail job that
 * sends it in the customer's language (at most once, retried). A rolled-back change tells no one.
 * A customer who chose this update on WhatsApp gets it there instead of the e-mail; the e-mail
 * goes if WhatsApp cannot deliver it (core/whatsapp/dispatch.ts, docs/decisions/049).
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
    /** False: the in-app row only, the caller sends its own (grouped) e-mail. */
    email?: boolean
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
  // A customer who gets this kind of update on WhatsApp gets it there instead of by e-mail (the
  // e-mail goes if WhatsApp cannot deliver it: core/whatsapp/dispatch.ts, docs/decisions/049).
  if (await queueWhatsApp(tx, jobs, { userId: input.userId, type: input.type, notificationId: row.id })) {
    return row.id
  }
  if (input.email !== false) await jobs.enqueue(tx, 'notification.email', { notificationId: row.id })
  return row.id
}

/**
 * Tells staff, in the caller's transaction: one row in the list of each staff member who may act
 * on it (admins and moderators by `STAFF_NOTIFICATIONS`, not banned), read and marked read each on
 * their own, and the e-mail job that writes to the same people, each in their language. A
 * rolled-back change tells no one.
 */
export async function notifyStaff(
  tx: Executor,
  jobs: AppJobEnqueuer,
  input: {
    type: StaffNotificationType
    params?: NotificationParams
    link: string
    /** The request it is about: its rows go when the request does (an account deleted). */
    requestId?: string | null
    /** False: the in-app rows only, the caller sends its own (grouped) e-mail. */
    email?: boolean
  },
): Promise<void> {
  const params = input.params ?? {}
  const roles = staffRolesFor(input.type)
  await tx.execute(sql`
    insert into ${notifications} (user_id, audience, tone, type, params, link, request_id)
    select ${users.id}, 'staff', ${STAFF_NOTIFICATIONS[input.type].tone}, ${input.type},
      ${JSON.stringify(params)}::jsonb, ${input.link}, ${input.requestId ?? null}::uuid
    from ${users}
    where ${users.role} = any(${sql.param(roles)}::text[]) and coalesce(${users.banned}, false) = false`)
  if (input.email === false) return
  await jobs.enqueue(tx, 'notification.staff-email', { type: input.type, params, link: input.link })
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
