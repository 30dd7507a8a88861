import { expect, test } from 'vitest'
import { type PricingSettings, quotePurchase } from '#core/pricing/pricing.ts'
import { DEFAULT_SETTINGS } from '#core/settings/settings-schema.ts'
import { basisPointsOf, type PricedItem, priceQuote } from './quote-pricing.ts'

// An invoice is priced exactly as the calculator prices (ADR 005): the same fee per unit, the
// same tax rounded down; several items pay tax once on their sum; domestic shipping is outside
// the tax base.

const settings: PricingSettings = {
  serviceFeeJpy: DEFAULT_SETTINGS.serviceFeeJpy,
  taxRate: DEFAULT_SETTINGS.taxRate,
  yenRates: DEFAULT_SETTINGS.yenRates,
}
const pricing = { serviceFeeJpy: settings.serviceFeeJpy, taxRateBasisPoints: basisPointsOf(settings.taxRate) }

const item = (position: number, unitPriceJpy: number, quantity = 1, domesticShippingJpy = 0): PricedItem => ({
  itemId: `item-${position}`,
  position,
  title: `Item ${position}`,
  quantity,
  unitPriceJpy,
  domesticShippingJpy,
})

test('one item without domestic shipping costs exactly what the calculator says, for many prices and quantities', () => {
  const prices = [1, 5, 9, 99, 333, 1234, 2500, 9999, 12_345, 77_777, 1_000_001, 10_000_000]
  for (const price of prices) {
    for (const quantity of [1, 2, 3, 7, 99]) {
      const calculator = quotePurchase(price, settings, quantity)
      const invoice = priceQuote([item(1, price, quantity)], pricing)
      expect(
        {
          itemsJpy: invoice.itemsJpy,
          serviceFeeJpy: invoice.serviceFeeJpy,
          taxJpy: invoice.taxJpy,
          totalJpy: invoice.totalJpy,
        },
        `${price} × ${quantity}`,
      ).toEqual({
        itemsJpy: calculator.productCost,
        serviceFeeJpy: calculator.serviceFee,
        taxJpy: calculator.tax,
        totalJpy: calculator.total,
      })
    }
  }
})

test('the same holds for other fees and rates, a rate such as 8% or 29% included', () => {
  for (const taxRate of [0, 0.08, 0.1, 0.29]) {
    for (const serviceFeeJpy of [0, 300, 500, 1999]) {
      const custom = { ...settings, taxRate, serviceFeeJpy }
      const invoice = priceQuote([item(1, 1234, 3)], {
        serviceFeeJpy,
        taxRateBasisPoints: basisPointsOf(taxRate),
      })
      expect(invoice.totalJpy, `${taxRate} ${serviceFeeJpy}`).toBe(quotePurchase(1234, custom, 3).total)
      expect(invoice.taxJpy).toBe(quotePurchase(1234, custom, 3).tax)
    }
  }
})

test('tax is rounded down, in whole yen', () => {
  // 1 + 500 = 501 → 50.1 → 50.
  expect(priceQuote([item(1, 1)], pricing)).toMatchObject({ taxableJpy: 501, taxJpy: 50, totalJpy: 551 })
  // 9 + 500 = 509 → 50.9 → 50 (not 51).
  expect(priceQuote([item(1, 9)], pricing)).toMatchObject({ taxableJpy: 509, taxJpy: 50, totalJpy: 559 })
})

test('several items: tax once on the sum of prices and fees, which can differ from the sum of per-item taxes', () => {
  const invoice = priceQuote([item(1, 5), item(2, 5)], pricing)
  // Each alone: 505 → 50 (50.5 rounded down), so 100 for both; on the sum 1010 → 101.
  const perItem = quotePurchase(5, settings).tax + quotePurchase(5, settings).tax
  expect(perItem).toBe(100)
  expect(invoice).toMatchObject({
    itemsJpy: 10,
    serviceFeeJpy: 1000,
    taxableJpy: 1010,
    taxJpy: 101,
    totalJpy: 1111,
  })
  // The sum logic in general: taxable = Σ price × qty + Σ fee × qty; tax = ⌊taxable × rate⌋.
  const many = [item(1, 2500, 2), item(2, 1234, 1), item(3, 99_999, 3)]
  const taxable = 2500 * 2 + 1234 + 99_999 * 3 + 500 * (2 + 1 + 3)
  expect(priceQuote(many, pricing)).toMatchObject({
    taxableJpy: taxable,
    taxJpy: Math.floor(taxable / 10),
    totalJpy: taxable + Math.floor(taxable / 10),
  })
})

test('domestic shipping is its own untaxed line per item that has it, added to the total at cost', () => {
  const invoice = priceQuote([item(2, 3000, 2, 800), item(1, 1000, 1, 0)], pricing)
  expect(invoice.lines).toEqual([
    {
      position: 1,
      kind: 'item',
      itemId: 'item-1',
      description: 'Item 1',
      quantity: 1,
      unitPriceJpy: 1000,
      amountJpy: 1000,
      taxable: true,
    },
    {
      position: 2,
      kind: 'service_fee',
      itemId: 'item-1',
      description: 'Item 1',
      quantity: 1,
      unitPriceJpy: 500,
      amountJpy: 500,
      taxable: true,
    },
    {
      position: 3,
      kind: 'item',
      itemId: 'item-2',
      description: 'Item 2',
      quantity: 2,
      unitPriceJpy: 3000,
      amountJpy: 6000,
      taxable: true,
    },
    {
      position: 4,
      kind: 'service_fee',
      itemId: 'item-2',
      description: 'Item 2',
      quantity: 2,
      unitPriceJpy: 500,
      amountJpy: 1000,
      taxable: true,
    },
    {
      position: 5,
      kind: 'domestic_shipping',
      itemId: 'item-2',
      description: 'Item 2',
      quantity: 1,
      unitPriceJpy: 800,
      amountJpy: 800,
      taxable: false,
    },
  ])
  expect(invoice).toMatchObject({
    itemsJpy: 7000,
    serviceFeeJpy: 1500,
    domesticShippingJpy: 800,
    taxableJpy: 8500,
    taxJpy: 850,
    totalJpy: 8500 + 850 + 800,
  })
  // The same items without shipping: the total differs by exactly the shipping, the tax not at all.
  const without = priceQuote([item(2, 3000, 2, 0), item(1, 1000, 1, 0)], pricing)
  expect(invoice.totalJpy - without.totalJpy).toBe(800)
  expect(without.taxJpy).toBe(invoice.taxJpy)
})

test('the largest quote (10 items at the price ceiling × 99, with the most shipping) stays exact', () => {
  const items = Array.from({ length: 10 }, (_, index) => item(index + 1, 10_000_000, 99, 1_000_000))
  const invoice = priceQuote(items, pricing)
  const taxable = 10 * 99 * (10_000_000 + 500)
  expect(invoice.totalJpy).toBe(taxable + Math.floor(taxable / 10) + 10 * 1_000_000)
  expect(Number.isSafeInteger(invoice.totalJpy)).toBe(true)
})

test('rates become whole basis points', () => {
  expect(basisPointsOf(0.1)).toBe(1000)
  expect(basisPointsOf(0.08)).toBe(800)
  expect(basisPointsOf(0.29)).toBe(2900)
  expect(basisPointsOf(0.105)).toBe(1050)
})
