import type { Actor } from '#core/shared/service-context.ts'

// Who may touch money. Recording a bank transfer and saying a refund was made are admins' work:
// moderators quote and write notes, but never mark an invoice paid (docs/decisions/021).
// TODO(#10): becomes `can(actor, 'record_payment')` of core/orders/staff-policy.ts when the
// quotes slice lands, so the whole role matrix lives in one table.

export function canRecordPayment(actor: Actor | null): boolean {
  return actor?.role === 'admin'
}
