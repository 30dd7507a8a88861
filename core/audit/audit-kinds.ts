// The kinds of audit records and the fields they hold: pure, so the audit page's components read
// them without the database code of ./audit-log.ts.

export const AUDIT_KINDS = [
  'role.assign',
  'settings.update',
  'rates.update',
  'payment.record',
  'payment.refund_done',
  'payment.accept',
  'payment.refund',
  'payment.transfer_not_received',
  'item.unavailable',
  'shipment.price_override',
  'shipment.receipt_reissue',
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
  'page.update',
  'import_rule.add',
  'destination.methods',
  'balance.topup',
  'balance.adjust',
  'balance.refund',
] as const
export type AuditKind = (typeof AUDIT_KINDS)[number]

/**
 * The kinds whose records hold paths of their own: settings ("yenRates.USD", labelled as on the
 * settings page), rate tables (a ceiling → its prices), the store guide's fields and public
 * pages' texts (labelled as in their editors).
 */
export const PATH_AUDIT_KINDS = [
  'settings.update',
  'rates.update',
  'store.create',
  'store.update',
  'page.update',
  'import_rule.add',
  'destination.methods',
] as const

/**
 * Every field any other kind may record, and how its value reads on the audit page
 * (app/components/admin/audit-change.tsx): each has a label in `audit.fields` of both admin locale
 * files, and each kind of value its words (a test checks them all). A new field is added here
 * first: the type of `recordAudit` refuses one that is not.
 */
export const AUDIT_FIELDS = {
  request: 'text',
  shipment: 'text',
  invoice: 'text',
  item: 'count',
  status: 'status',
  amountJpy: 'yen',
  priceJpy: 'yen',
  refundJpy: 'yen',
  refundDueJpy: 'yen',
  refundDoneJpy: 'yen',
  // A shipping receipt re-issued (docs/decisions/037): the one it replaces, its credit note and
  // what is carried, left to pay or given back.
  totalJpy: 'yen',
  previous: 'text',
  previousJpy: 'yen',
  creditNote: 'text',
  creditAppliedJpy: 'yen',
  toPayJpy: 'yen',
  weightG: 'grams',
  daysOver: 'days',
  reference: 'text',
  reason: 'text',
  note: 'text',
  via: 'provider',
  role: 'role',
  disabled: 'yesNo',
  sessionsEnded: 'count',
  name: 'text',
  hidden: 'yesNo',
  position: 'count',
  logo: 'logo',
  balanceJpy: 'yen',
} as const satisfies Record<string, AuditFieldType>
export type AuditField = keyof typeof AUDIT_FIELDS
export type AuditFieldType =
  | 'text'
  | 'count'
  | 'status'
  | 'yen'
  | 'grams'
  | 'days'
  | 'provider'
  | 'role'
  | 'yesNo'
  | 'logo'

/** Which statuses a kind's `status` field holds: an item's, a shipment's or a payment's. */
export function auditStatusKind(kind: string): 'item' | 'shipment' | 'payment' | null {
  if (kind.startsWith('item.')) return 'item'
  if (kind.startsWith('shipment.') || kind.startsWith('claim.')) return 'shipment'
  if (kind.startsWith('payment.')) return 'payment'
  return null
}
