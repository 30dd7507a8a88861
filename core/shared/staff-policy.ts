import { AppError } from './errors.ts'
import type { Actor } from './service-context.ts'

/**
 * What each staff role may do in the admin panel (docs/decisions/021-quotes-invoices-payments.md).
 * Moderators work the request queue: they read requests, price them, send or revise the quote,
 * reject with a reason and write notes. Money that has arrived (recording a payment, refunds),
 * the contact inbox (customers' personal messages), the business settings (settings, rate tables)
 * and the audit log stay with admins.
 * Pure, so a page hides what the server refuses anyway; every service checks it again.
 */
export const STAFF_ACTIONS = [
  'view_requests',
  'save_quote_draft',
  'approve_quote',
  'reject_request',
  'revise_quote',
  'write_note',
  'view_invoices',
  'record_payment',
  'read_contact_inbox',
  'manage_settings',
  'read_audit_log',
  'view_users',
  'manage_users',
  'view_analytics',
  'manage_stores',
  'handle_arrivals',
  'dispose_items',
] as const
export type StaffAction = (typeof STAFF_ACTIONS)[number]

const MODERATOR_ACTIONS: ReadonlySet<StaffAction> = new Set([
  'view_requests',
  'save_quote_draft',
  'approve_quote',
  'reject_request',
  'revise_quote',
  'write_note',
  'view_invoices',
  // Who the customer is (the user list and a user's page), read-only: roles, sign-outs and
  // disabling accounts stay with admins (docs/decisions/024-admin-users.md).
  'view_users',
  // The warehouse: marking items bought at the shop and booking what arrives (docs/decisions/027).
  'handle_arrivals',
])

/** Whether this actor may do this in the admin panel: admins everything, moderators the queue's work. */
export function can(actor: Actor | null, action: StaffAction): boolean {
  if (actor?.role === 'admin') return true
  if (actor?.role === 'moderator') return MODERATOR_ACTIONS.has(action)
  return false
}

/**
 * The actor, when they may do this; else `forbidden` with the reason a person reads (`adminsOnly`
 * for what only admins do). What a service calls first, so a page under the wrong layout still
 * refuses.
 */
export function requireStaffAction(
  actor: Actor | null,
  action: StaffAction,
  reason: 'adminsOnly' | 'staffActionForbidden' = 'adminsOnly',
): Actor {
  if (!actor || !can(actor, action)) {
    throw new AppError('forbidden', `${actor?.role ?? 'anonymous'} may not ${action}`, { reason })
  }
  return actor
}

/** The actions this actor may take, for a page's buttons and a layout's tabs. */
export function allowedActions(actor: Actor | null): StaffAction[] {
  return STAFF_ACTIONS.filter((action) => can(actor, action))
}
