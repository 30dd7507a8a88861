import type { Actor } from '#core/shared/service-context.ts'
import { can } from '#core/shared/staff-policy.ts'

// Who may touch money: recording a bank transfer and saying a refund was made are admins' work
// (core/shared/staff-policy.ts `record_payment`: moderators quote and write notes, but never
// mark an invoice paid). docs/decisions/021.

export function canRecordPayment(actor: Actor | null): boolean {
  return can(actor, 'record_payment')
}
