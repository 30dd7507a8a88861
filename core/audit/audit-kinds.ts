/**
 * Every kind of action the audit log records (core/audit/audit-log.ts), each with a label in the
 * admin locale files (`audit.kinds`). Pure, so the audit page's filter can list them in the browser.
 */
export const AUDIT_KINDS = [
  'role.assign',
  'settings.update',
  'rates.update',
  'payment.record',
  'payment.refund_done',
  'payment.accept',
  'payment.refund',
  'item.unavailable',
  'shipment.price_override',
  'claim.lost',
  'item.dispose',
  'user.disable',
  'user.enable',
  'user.sign_out',
  'store.create',
  'store.update',
  'store.hide',
  'store.show',
  'store.move',
  'store.logo',
] as const
export type AuditKind = (typeof AUDIT_KINDS)[number]
