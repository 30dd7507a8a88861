import type { FrozenImportEstimate } from '#core/landed-cost/landed-cost.ts'
import { MAX_TOTAL_JPY } from '#core/pricing/pricing.ts'
import { basisPointsOf } from '#core/pricing/quote-pricing.ts'
import type { Settings } from '#core/settings/settings-schema.ts'
import { AppError } from '#core/shared/errors.ts'
import { type OrderActor, recordOrderEvent } from '#core/shared/history.ts'
import type { Executor } from '#db/client.ts'
import { invoiceLines, invoices } from '#db/schema/index.ts'
import { japanYear, takeInvoiceNumber } from './invoice-service.ts'
import { chargedStorage, type StorageFeeLine, shippingReceiptTotals } from './receipt-totals.ts'

export { type ShippingReceiptTotals, type StorageFeeLine, shippingReceiptTotals } from './receipt-totals.ts'

/**
 * The shipping receipt (docs/decisions/029): an invoice of kind `shipping` on the same tables,
 * numbers, machine and payment port as the purchase quote. Its lines: the international
 * shipping of the packed box (an export: no consumption tax) and, for each item kept past its
 * free storage, the days × the daily fee (a service in Japan: taxed, rounded down once for the
 * invoice as on every receipt, ADR 005). Frozen once issued, like every invoice. Its totals come
 * from `shippingReceiptTotals` (./receipt-totals.ts), the one pricing the estimates use too.
 * It may carry the import estimate of the parcel (`importEstimate`): shown, never charged.
 */

/** Issues the shipping receipt inside the caller's transaction (which holds the shipment's lock). */
export async function issueShippingInvoice(
  tx: Executor,
  input: {
    shipment: { id: string; number: string; userId: string; locale: 'es' | 'en' }
    recipient: { name: string; email: string }
    shippingJpy: number
    storage: readonly StorageFeeLine[]
    settings: Pick<Settings, 'taxRate' | 'yenRates' | 'company' | 'daysToPay'>
    actor: OrderActor
    issuedAt: Date
    /** A re-issue (docs/decisions/037): the receipt it replaces, and the credit carried over. */
    replacesInvoiceId?: string | null
    creditAppliedJpy?: number
    /**
     * The import estimate shown with it (issue 30, ADR 046), made by the caller with the rules in
     * effect that day and frozen here: a rule changed later never rewrites it. Not charged.
     */
    importEstimate?: FrozenImportEstimate | null
  },
) {
  const { settings, issuedAt, shipment } = input
  const taxRateBasisPoints = basisPointsOf(settings.taxRate)
  const storage = chargedStorage(input.storage)
  const totals = shippingReceiptTotals(input.shippingJpy, storage, taxRateBasisPoints)
  if (totals.totalJpy > MAX_TOTAL_JPY) {
    throw new AppError('conflict', `Shipping receipt total ¥${totals.totalJpy} is above ¥${MAX_TOTAL_JPY}`, {
      reason: 'quoteTooLarge',
    })
  }
  const year = japanYear(issuedAt)
  const { sequence, number } = await takeInvoiceNumber(tx, year)
  const [invoice] = await tx
    .insert(invoices)
    .values({
      number,
      year,
      sequence,
      kind: 'shipping',
      shipmentId: shipment.id,
      userId: shipment.userId,
      status: 'open',
      locale: shipment.locale,
      recipient: input.recipient,
      issuer: { ...settings.company },
      taxRateBasisPoints,
      serviceFeeUnitJpy: 0,
      yenRates: { ...settings.yenRates },
      itemsJpy: 0,
      domesticShippingJpy: 0,
      serviceFeeJpy: 0,
      shippingJpy: totals.shippingJpy,
      storageFeeJpy: totals.storageFeeJpy,
      taxableJpy: totals.storageFeeJpy,
      taxJpy: totals.taxJpy,
      totalJpy: totals.totalJpy,
      creditAppliedJpy: input.creditAppliedJpy ?? 0,
      issuedAt,
      dueAt: new Date(issuedAt.getTime() + settings.daysToPay * 86_400_000),
      replacesInvoiceId: input.replacesInvoiceId ?? null,
      importEstimate: input.importEstimate ?? null,
    })
    .returning({ id: invoices.id })
  if (!invoice) throw new Error('Unable to store a shipping receipt: no row returned')
  await tx.insert(invoiceLines).values([
    {
      invoiceId: invoice.id,
      position: 1,
      kind: 'shipping',
      itemId: null,
      description: shipment.number,
      quantity: 1,
      unitPriceJpy: totals.shippingJpy,
      amountJpy: totals.shippingJpy,
      taxable: false,
    },
    ...storage.map((line, index) => ({
      invoiceId: invoice.id,
      position: index + 2,
      kind: 'storage_fee',
      itemId: line.itemId,
      description: line.title,
      quantity: line.days,
      unitPriceJpy: line.feePerDayJpy,
      amountJpy: line.days * line.feePerDayJpy,
      taxable: true,
    })),
  ])
  await recordOrderEvent(tx, {
    entityType: 'invoice',
    entityId: invoice.id,
    event: 'issue',
    from: null,
    to: 'open',
    actor: input.actor,
    data: {
      number,
      totalJpy: totals.totalJpy,
      shipmentId: shipment.id,
      ...(input.creditAppliedJpy ? { creditAppliedJpy: input.creditAppliedJpy } : {}),
    },
  })
  return { id: invoice.id, number, ...totals }
}
