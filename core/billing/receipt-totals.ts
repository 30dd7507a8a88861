import { taxOn } from '#core/pricing/pricing.ts'

/**
 * The one pricing of a shipping receipt (docs/decisions/029, 037): the international shipping of
 * the box (an export: no consumption tax) plus, for each item kept past its free storage, the
 * days × the daily fee (a service in Japan: taxed, rounded down once for the whole document, ADR
 * 005). Every figure a customer sees about shipping goes through `shippingReceiptTotals`: the
 * shipping tab's estimate before asking to ship (core/shipping/shipment-estimate.ts), the
 * calculator, the receipt staff issue (core/billing/shipping-receipt.ts, which re-exports it)
 * and a re-issued receipt, so an estimate and the receipt of the same day can never disagree.
 * Pure, and free of anything a browser cannot load (the calculator runs it there).
 */

/** One item's storage charge: `days` past its free period at `feePerDayJpy` a day (before tax). */
export type StorageFeeLine = { itemId: string; title: string; days: number; feePerDayJpy: number }

export type ShippingReceiptTotals = {
  shippingJpy: number
  /** The storage fees before tax: Σ days × fee. */
  storageFeeJpy: number
  /** The consumption tax on the storage fees (shipping is not taxed). */
  taxJpy: number
  totalJpy: number
}

/** The lines that charge something: an item within its free days, or a fee of 0, has none. */
export function chargedStorage<Line extends StorageFeeLine>(lines: readonly Line[]): Line[] {
  return lines.filter((line) => line.days > 0 && line.feePerDayJpy > 0)
}

/** What one line charges before tax. */
export function storageLineJpy(line: Pick<StorageFeeLine, 'days' | 'feePerDayJpy'>): number {
  return line.days > 0 && line.feePerDayJpy > 0 ? line.days * line.feePerDayJpy : 0
}

/** The totals of a shipping receipt (or of its estimate) from its shipping price and storage lines. */
export function shippingReceiptTotals(
  shippingJpy: number,
  storage: readonly Pick<StorageFeeLine, 'days' | 'feePerDayJpy'>[],
  taxRateBasisPoints: number,
): ShippingReceiptTotals {
  const storageFeeJpy = storage.reduce((sum, line) => sum + storageLineJpy(line), 0)
  const taxJpy = taxOn(storageFeeJpy, taxRateBasisPoints / 10_000)
  return { shippingJpy, storageFeeJpy, taxJpy, totalJpy: shippingJpy + storageFeeJpy + taxJpy }
}
