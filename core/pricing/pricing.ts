import type { YenRates } from '#core/money/money.ts'
import { parseGrams, parseWholeNumber, parseYen } from '#core/money/parse-yen.ts'

/**
 * The pricing rules of the service: purchase quotes, shipping prices and full estimates.
 * Pure and isomorphic: the calculators run it in the browser, the server prices real quotes
 * with the same code, so an estimate and an invoice cannot disagree.
 *
 * Yen rounding rule (docs/decisions/005-yen-rounding.md): every amount is a whole number of
 * yen; the tax is rounded down to the yen, as Japanese invoices do; converted currencies are
 * rounded only for display (two decimals).
 */

export const REGIONS = ['asia', 'europe_canada_mexico', 'usa', 'central_south_america'] as const
export type Region = (typeof REGIONS)[number]

export const SHIPPING_METHODS = ['economic', 'express'] as const
export type ShippingMethod = (typeof SHIPPING_METHODS)[number]

/** One row of a rate table: the price in yen per region for any weight up to `ceilingG`. */
export type RateRow = { ceilingG: number; prices: Record<Region, number> }
export type RateTables = Record<ShippingMethod, RateRow[]>

export const WEIGHT_LIMITS: Record<
  ShippingMethod,
  { minG: number; maxG: number; stepG: number; defaultG: number }
> = {
  economic: { minG: 300, maxG: 2000, stepG: 50, defaultG: 500 },
  express: { minG: 500, maxG: 10_000, stepG: 50, defaultG: 1000 },
}

/** Above this an item price is refused as a typing mistake rather than priced. */
export const MAX_ITEM_PRICE_JPY = 10_000_000
export const MAX_ITEM_COUNT = 99
/**
 * The largest total one invoice may ask and one payment may record (a quote, a shipping receipt,
 * a bank transfer staff type): ¥99,999,999, the most Stripe Checkout takes in yen. Ten items at
 * the largest price, many of each, can add up to more: such a quote is refused when it is
 * approved (`quoteTooLarge`), never issued for a total nobody could pay.
 */
export const MAX_TOTAL_JPY = 99_999_999

export type PricingSettings = { serviceFeeJpy: number; taxRate: number; yenRates: YenRates }

export type PriceError = 'required' | 'notNumber' | 'separators' | 'notWhole' | 'negative' | 'tooLarge'
export type WeightError = 'required' | 'notNumber' | 'separators' | 'outOfRange' | 'offStep'
export type CountError = 'required' | 'notWhole' | 'outOfRange'

type Parsed<T, E> = { ok: true; value: T } | { ok: false; error: E }

/**
 * Reads an item price typed or pasted by a person ("2500", "2.500", "2,500", "¥2,500", "2,500円",
 * "JPY 2500", full-width digits: `parseYen`, ADR 013). Empty and zero are "no price yet" (the
 * calculator shows nothing), anything else must be a whole, non-negative number of yen up to the
 * maximum.
 */
export function parseItemPrice(input: string | number | null | undefined): Parsed<number | null, PriceError> {
  if (input === null || input === undefined) return { ok: true, value: null }
  const parsed = parseYen(input)
  if (!parsed.ok) return parsed.error === 'required' ? { ok: true, value: null } : parsed
  if (parsed.value > MAX_ITEM_PRICE_JPY) return { ok: false, error: 'tooLarge' }
  return { ok: true, value: parsed.value === 0 ? null : parsed.value }
}

/** Reads a weight in grams, written as people write it ("1500", "1.500", "1,500 g"). */
export function parseWeight(
  method: ShippingMethod,
  input: string | number | null | undefined,
): Parsed<number, WeightError> {
  const parsed = parseGrams(input)
  const limits = WEIGHT_LIMITS[method]
  if (!parsed.ok) {
    switch (parsed.error) {
      case 'required':
      case 'notNumber':
      case 'separators':
        return { ok: false, error: parsed.error }
      case 'notWhole':
        return { ok: false, error: 'offStep' }
      default:
        return { ok: false, error: 'outOfRange' }
    }
  }
  const value = parsed.value
  if (value < limits.minG || value > limits.maxG) return { ok: false, error: 'outOfRange' }
  if (value % limits.stepG !== 0) return { ok: false, error: 'offStep' }
  return { ok: true, value }
}

export function parseItemCount(input: string | number | null | undefined): Parsed<number, CountError> {
  const parsed = parseWholeNumber(input, [])
  if (!parsed.ok) {
    if (parsed.error === 'required') return { ok: false, error: 'required' }
    if (parsed.error === 'negative' || parsed.error === 'tooLarge') return { ok: false, error: 'outOfRange' }
    return { ok: false, error: 'notWhole' }
  }
  if (parsed.value < 1 || parsed.value > MAX_ITEM_COUNT) return { ok: false, error: 'outOfRange' }
  return { ok: true, value: parsed.value }
}

/** The tax on an amount, rounded down to the yen, in integer arithmetic (no 0.1 drift). */
export function taxOn(amountJpy: number, taxRate: number): number {
  const basisPoints = Math.round(taxRate * 10_000)
  return Math.floor((amountJpy * basisPoints) / 10_000)
}

export type PurchaseQuote = {
  productCost: number
  serviceFee: number
  tax: number
  total: number
  usd: number
  mxn: number
  clp: number
}

/** The quote for `count` items of one yen price: fee per item, tax on price plus fee. */
export function quotePurchase(priceJpy: number, settings: PricingSettings, count = 1): PurchaseQuote {
  const productCost = priceJpy * count
  const serviceFee = settings.serviceFeeJpy * count
  const tax = taxOn(productCost + serviceFee, settings.taxRate)
  const total = productCost + serviceFee + tax
  return {
    productCost,
    serviceFee,
    tax,
    total,
    usd: total * settings.yenRates.USD,
    mxn: total * settings.yenRates.MXN,
    clp: total * settings.yenRates.CLP,
  }
}

/**
 * The shipping price: the first row whose ceiling is at least the weight. Null above the last
 * row: there is no price, and we say so rather than guess.
 */
export function shippingPrice(rows: readonly RateRow[], region: Region, weightG: number): number | null {
  const row = [...rows]
    .sort((a, b) => a.ceilingG - b.ceilingG)
    .find((candidate) => candidate.ceilingG >= weightG)
  return row ? row.prices[region] : null
}

/** Where we ship and how: direct by Japan Post, or to the USA and on by courier. */
export type Route = 'direct' | 'courier_via_usa'
export type Destination = { code: string; region: Region; route: Route }

// The spec's destinations. Country codes are ISO 3166-1; the three groups name what is left of
// Europe, Oceania and Asia. Japan Post puts Oceania in the same zone as Europe, Canada and Mexico.
export const DESTINATIONS: readonly Destination[] = [
  { code: 'MX', region: 'europe_canada_mexico', route: 'direct' },
  { code: 'CL', region: 'central_south_america', route: 'direct' },
  { code: 'PE', region: 'central_south_america', route: 'direct' },
  { code: 'SV', region: 'central_south_america', route: 'direct' },
  { code: 'CR', region: 'central_south_america', route: 'direct' },
  { code: 'AR', region: 'central_south_america', route: 'direct' },
  { code: 'ES', region: 'europe_canada_mexico', route: 'direct' },
  { code: 'US', region: 'usa', route: 'direct' },
  { code: 'CA', region: 'europe_canada_mexico', route: 'direct' },
  { code: 'PY', region: 'usa', route: 'courier_via_usa' },
  { code: 'EC', region: 'usa', route: 'courier_via_usa' },
  { code: 'BO', region: 'usa', route: 'courier_via_usa' },
  { code: 'CO', region: 'usa', route: 'courier_via_usa' },
  { code: 'europe', region: 'europe_canada_mexico', route: 'direct' },
  { code: 'oceania', region: 'europe_canada_mexico', route: 'direct' },
  { code: 'asia', region: 'asia', route: 'direct' },
]

export function findDestination(code: string | null | undefined): Destination | null {
  return DESTINATIONS.find((destination) => destination.code === code) ?? null
}

/** Delivery time by method; economy to Asia is about a week. */
export type DeliveryTime = 'economic_asia' | 'economic' | 'express'

export function deliveryTime(method: ShippingMethod, region: Region): DeliveryTime {
  if (method === 'express') return 'express'
  return region === 'asia' ? 'economic_asia' : 'economic'
}

export type Estimate = PurchaseQuote & {
  shipping: number | null
  /** Product, fee, tax and shipping; null when the weight has no rate. */
  grandTotal: number | null
  deliveryTime: DeliveryTime
  route: Route
}

/** A whole estimate for a destination: purchase quote plus international shipping. */
export function estimateOrder(input: {
  priceJpy: number
  count: number
  destination: Destination
  method: ShippingMethod
  weightG: number
  settings: PricingSettings
  rates: RateTables
}): Estimate {
  const quote = quotePurchase(input.priceJpy, input.settings, input.count)
  const shipping = shippingPrice(input.rates[input.method], input.destination.region, input.weightG)
  return {
    ...quote,
    shipping,
    grandTotal: shipping === null ? null : quote.total + shipping,
    deliveryTime: deliveryTime(input.method, input.destination.region),
    route: input.destination.route,
  }
}
