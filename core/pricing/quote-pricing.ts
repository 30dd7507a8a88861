import { taxOn } from '#core/pricing/pricing.ts'

/**
 * A purchase quote's lines and totals from the prices staff entered, with the same rules as the
 * calculator (`quotePurchase`, core/pricing/pricing.ts): the service fee per unit, consumption tax
 * on price plus fee rounded down to the yen once for the whole invoice (ADR 005). Domestic
 * shipping (the shop's delivery to our office) is passed on at cost, outside the tax base
 * (docs/decisions/021-quotes-invoices-payments.md). Pure and isomorphic: the admin page shows
 * the same totals live in the browser.
 */

export type QuotePricing = { serviceFeeJpy: number; taxRateBasisPoints: number }

export type PricedItem = {
  itemId: string
  position: number
  title: string
  quantity: number
  unitPriceJpy: number
  domesticShippingJpy: number
}

export type QuoteLineKind = 'item' | 'service_fee' | 'domestic_shipping'

export type QuoteLine = {
  position: number
  kind: QuoteLineKind
  itemId: string
  description: string
  quantity: number
  unitPriceJpy: number
  amountJpy: number
  taxable: boolean
}

export type QuoteTotals = {
  itemsJpy: number
  serviceFeeJpy: number
  domesticShippingJpy: number
  /** Items and service fee: the base of the consumption tax. */
  taxableJpy: number
  taxJpy: number
  totalJpy: number
}

/** The settings' tax rate (0.1) as whole basis points (1000), the form an invoice freezes. */
export function basisPointsOf(taxRate: number): number {
  return Math.round(taxRate * 10_000)
}

/**
 * One `item` line (price × quantity) and one `service_fee` line (fee × quantity) per item, both
 * taxable, and a `domestic_shipping` line (not taxable) for each item the shop charges delivery
 * on; in the items' order.
 */
export function priceQuote(
  items: readonly PricedItem[],
  pricing: QuotePricing,
): QuoteTotals & {
  lines: QuoteLine[]
} {
  const lines: QuoteLine[] = []
  const add = (line: Omit<QuoteLine, 'position' | 'amountJpy'>) =>
    lines.push({ ...line, position: lines.length + 1, amountJpy: line.unitPriceJpy * line.quantity })
  for (const item of [...items].sort((a, b) => a.position - b.position)) {
    const common = { itemId: item.itemId, description: item.title, quantity: item.quantity }
    add({ ...common, kind: 'item', unitPriceJpy: item.unitPriceJpy, taxable: true })
    add({ ...common, kind: 'service_fee', unitPriceJpy: pricing.serviceFeeJpy, taxable: true })
    if (item.domesticShippingJpy > 0) {
      add({
        ...common,
        kind: 'domestic_shipping',
        quantity: 1,
        unitPriceJpy: item.domesticShippingJpy,
        taxable: false,
      })
    }
  }
  const sum = (kind: QuoteLineKind) =>
    lines.filter((line) => line.kind === kind).reduce((total, line) => total + line.amountJpy, 0)
  const itemsJpy = sum('item')
  const serviceFeeJpy = sum('service_fee')
  const domesticShippingJpy = sum('domestic_shipping')
  const taxableJpy = itemsJpy + serviceFeeJpy
  const taxJpy = taxOn(taxableJpy, pricing.taxRateBasisPoints / 10_000)
  return {
    lines,
    itemsJpy,
    serviceFeeJpy,
    domesticShippingJpy,
    taxableJpy,
    taxJpy,
    totalJpy: taxableJpy + taxJpy + domesticShippingJpy,
  }
}
