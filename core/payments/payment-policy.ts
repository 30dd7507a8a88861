import { can } from '#core/orders/staff-policy.ts'
import type { Actor } from '#core/shared/service-context.ts'

// Who may touch money: recording a bank transfer and saying a refund was made are admins' work
// (core/orders/staff-policy.ts `record_payment`: moderators quote and write notes, but never
// mark an invoice paid). docs/decisions/021.

export function canRecordPayment(actor: Actor | null): boolean {
  return can(actor, 'record_payment')
}
