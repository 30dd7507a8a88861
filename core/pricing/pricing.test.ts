import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { seedRateRows } from '#core/seed/data/shipping-rates.ts'
import {
  DESTINATIONS,
  deliveryTime,
  estimateOrder,
  findDestination,
  MAX_ITEM_PRICE_JPY,
  parseItemCount,
  parseItemPrice,
  parseWeight,
  quotePurchase,
  type RateTables,
  REGIONS,
  SHIPPING_METHODS,
  shippingPrice,
  taxOn,
  WEIGHT_LIMITS,
} from './pricing.ts'

const settings = { serviceFeeJpy: 500, taxRate: 0.1, yenRates: { USD: 0.0068, MXN: 0.13, CLP: 6.54 } }

// The seeded tables, as the app reads them.
const tables: RateTables = { economic: [], express: [] }
for (const row of seedRateRows()) tables[row.method].push({ ceilingG: row.ceilingG, prices: row.prices })

test('the specification samples: economic 300 g and express 500 g', () => {
  expect(REGIONS.map((region) => shippingPrice(tables.economic, region, 300))).toEqual([
    1738, 2013, 2431, 2233,
  ])
  expect(REGIONS.map((region) => shippingPrice(tables.express, region, 500))).toEqual([
    2640, 4015, 4840, 4510,
  ])
})

test('the tables have the specification rows: economic 300–2000 step 100, express 500–5000 step 500 then 6000–10000 step 1000', () => {
  expect(tables.economic.map((row) => row.ceilingG)).toEqual(
    Array.from({ length: 18 }, (_, i) => 300 + i * 100),
  )
  expect(tables.express.map((row) => row.ceilingG)).toEqual([
    500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000, 6000, 7000, 8000, 9000, 10000,
  ])
})

describe.each(SHIPPING_METHODS)('%s rate boundaries', (method) => {
  const rows = tables[method]
  test.each(REGIONS)('%s: at a ceiling, 50 g above it, the last row, above the last row', (region) => {
    rows.forEach((row, index) => {
      expect(shippingPrice(rows, region, row.ceilingG)).toBe(row.prices[region])
      const next = rows[index + 1]
      if (next) expect(shippingPrice(rows, region, row.ceilingG + 50)).toBe(next.prices[region])
    })
    const last = rows.at(-1)
    expect(last).toBeDefined()
    if (!last) return
    expect(shippingPrice(rows, region, last.ceilingG)).toBe(last.prices[region])
    expect(shippingPrice(rows, region, last.ceilingG + 50)).toBeNull()
    expect(shippingPrice(rows, region, WEIGHT_LIMITS[method].minG)).toBe(rows[0]?.prices[region])
  })
})

test('a purchase quote: fee per item, tax on price plus fee, rounded down to the yen', () => {
  expect(quotePurchase(1000, settings)).toMatchObject({
    productCost: 1000,
    serviceFee: 500,
    tax: 150,
    total: 1650,
  })
  // 10 % of 1733 is 173.3: the tax is 173.
  expect(quotePurchase(1233, settings)).toMatchObject({ tax: 173, total: 1906 })
  expect(quotePurchase(1000, settings, 3)).toMatchObject({
    productCost: 3000,
    serviceFee: 1500,
    tax: 450,
    total: 4950,
  })
  const quote = quotePurchase(1000, settings)
  expect(quote.usd).toBeCloseTo(11.22)
  expect(quote.mxn).toBeCloseTo(214.5)
  expect(quote.clp).toBeCloseTo(10791)
})

test('tax has no floating-point drift at awkward rates', () => {
  // 0.29 × 100 is 28.999999999999996 in floating point.
  expect(taxOn(100, 0.29)).toBe(29)
  expect(taxOn(1733, 0.1)).toBe(173)
  expect(taxOn(0, 0.1)).toBe(0)
})

test('item prices: empty and zero mean no result; bad input is named', () => {
  expect(parseItemPrice('')).toEqual({ ok: true, value: null })
  expect(parseItemPrice('0')).toEqual({ ok: true, value: null })
  expect(parseItemPrice(' 12,500 ')).toEqual({ ok: true, value: 12500 })
  expect(parseItemPrice('-5')).toEqual({ ok: false, error: 'negative' })
  expect(parseItemPrice('abc')).toEqual({ ok: false, error: 'notNumber' })
  expect(parseItemPrice('NaN')).toEqual({ ok: false, error: 'notNumber' })
  expect(parseItemPrice('Infinity')).toEqual({ ok: false, error: 'notNumber' })
  expect(parseItemPrice('1e400')).toEqual({ ok: false, error: 'notNumber' })
  expect(parseItemPrice('12.5')).toEqual({ ok: false, error: 'notWhole' })
  // The ways shops and people write it (ADR 013; the parser has its own tests in core/money).
  expect(parseItemPrice('2.500')).toEqual({ ok: true, value: 2500 })
  expect(parseItemPrice('¥2,500')).toEqual({ ok: true, value: 2500 })
  expect(parseItemPrice('2,500円')).toEqual({ ok: true, value: 2500 })
  expect(parseItemPrice('２５００')).toEqual({ ok: true, value: 2500 })
  expect(parseItemPrice('1,2,3')).toEqual({ ok: false, error: 'separators' })
  expect(parseItemPrice('10.000.001')).toEqual({ ok: false, error: 'tooLarge' })
  expect(parseItemPrice('1e3')).toEqual({ ok: false, error: 'notNumber' })
  expect(parseItemPrice(String(MAX_ITEM_PRICE_JPY))).toEqual({ ok: true, value: MAX_ITEM_PRICE_JPY })
  expect(parseItemPrice(String(MAX_ITEM_PRICE_JPY + 1))).toEqual({ ok: false, error: 'tooLarge' })
  expect(parseItemPrice('<script>alert(1)</script>')).toEqual({ ok: false, error: 'notNumber' })
})

test('weights: inside the method range and on the 50 g step', () => {
  expect(parseWeight('economic', '300')).toEqual({ ok: true, value: 300 })
  expect(parseWeight('economic', '2000')).toEqual({ ok: true, value: 2000 })
  expect(parseWeight('economic', '250')).toEqual({ ok: false, error: 'outOfRange' })
  expect(parseWeight('economic', '2050')).toEqual({ ok: false, error: 'outOfRange' })
  expect(parseWeight('express', '10000')).toEqual({ ok: true, value: 10000 })
  expect(parseWeight('express', '10050')).toEqual({ ok: false, error: 'outOfRange' })
  expect(parseWeight('express', '525')).toEqual({ ok: false, error: 'offStep' })
  expect(parseWeight('express', '600.5')).toEqual({ ok: false, error: 'offStep' })
  expect(parseWeight('express', '')).toEqual({ ok: false, error: 'required' })
  expect(parseWeight('express', 'heavy')).toEqual({ ok: false, error: 'notNumber' })
  expect(parseWeight('economic', '-1000')).toEqual({ ok: false, error: 'outOfRange' })
  expect(parseWeight('economic', '-1e99')).toEqual({ ok: false, error: 'notNumber' })
  expect(parseWeight('express', '1.500')).toEqual({ ok: true, value: 1500 })
  expect(parseWeight('express', '1,500 g')).toEqual({ ok: true, value: 1500 })
  expect(parseWeight('express', '1,5')).toEqual({ ok: false, error: 'offStep' })
  expect(parseWeight('express', '15 00')).toEqual({ ok: false, error: 'separators' })
  expect(parseWeight('economic', 'Infinity')).toEqual({ ok: false, error: 'notNumber' })
})

test('item counts: whole numbers from 1 to 99', () => {
  expect(parseItemCount('3')).toEqual({ ok: true, value: 3 })
  expect(parseItemCount('0')).toEqual({ ok: false, error: 'outOfRange' })
  expect(parseItemCount('100')).toEqual({ ok: false, error: 'outOfRange' })
  expect(parseItemCount('1.5')).toEqual({ ok: false, error: 'notWhole' })
  expect(parseItemCount('-3')).toEqual({ ok: false, error: 'outOfRange' })
  expect(parseItemCount('two')).toEqual({ ok: false, error: 'notWhole' })
})

test('destinations: direct countries, courier via the USA, and the rest of Europe, Oceania and Asia', () => {
  for (const code of ['MX', 'CL', 'PE', 'SV', 'CR', 'ES', 'AR'])
    expect(findDestination(code)?.route).toBe('direct')
  for (const code of ['PY', 'EC', 'BO', 'CO']) {
    expect(findDestination(code)).toMatchObject({ route: 'courier_via_usa', region: 'usa' })
  }
  expect(findDestination('europe')?.region).toBe('europe_canada_mexico')
  expect(findDestination('oceania')?.region).toBe('europe_canada_mexico')
  expect(findDestination('asia')?.region).toBe('asia')
  expect(findDestination('MX')?.region).toBe('europe_canada_mexico')
  expect(findDestination('CL')?.region).toBe('central_south_america')
  expect(findDestination('XX')).toBeNull()
  expect(new Set(DESTINATIONS.map((destination) => destination.code)).size).toBe(DESTINATIONS.length)
})

test('an estimate adds shipping to the purchase quote and names the delivery time', () => {
  const destination = findDestination('CL')
  if (!destination) throw new Error('Chile is a destination')
  const estimate = estimateOrder({
    priceJpy: 3000,
    count: 2,
    destination,
    method: 'economic',
    weightG: 500,
    settings,
    rates: tables,
  })
  expect(estimate).toMatchObject({
    productCost: 6000,
    serviceFee: 1000,
    tax: 700,
    total: 7700,
    route: 'direct',
  })
  expect(estimate.shipping).toBe(shippingPrice(tables.economic, 'central_south_america', 500))
  expect(estimate.grandTotal).toBe(7700 + (estimate.shipping ?? 0))
  expect(estimate.deliveryTime).toBe('economic')
  expect(deliveryTime('economic', 'asia')).toBe('economic_asia')
  expect(deliveryTime('express', 'asia')).toBe('express')
})

const validPrice = fc.integer({ min: 1, max: MAX_ITEM_PRICE_JPY })

test('property: total = price + fee + tax, and the tax is 10 % of price plus fee rounded down', () => {
  fc.assert(
    fc.property(validPrice, fc.integer({ min: 1, max: 99 }), (price, count) => {
      const quote = quotePurchase(price, settings, count)
      expect(quote.total).toBe(quote.productCost + quote.serviceFee + quote.tax)
      expect(quote.tax).toBe(Math.floor((price * count + 500 * count) / 10))
    }),
  )
})

test('property: the total grows with the price', () => {
  fc.assert(
    fc.property(validPrice, validPrice, (a, b) => {
      fc.pre(a !== b)
      const [low, high] = a < b ? [a, b] : [b, a]
      expect(quotePurchase(high, settings).total).toBeGreaterThan(quotePurchase(low, settings).total)
    }),
  )
})

test('property: conversions follow the rates', () => {
  fc.assert(
    fc.property(validPrice, (price) => {
      const quote = quotePurchase(price, settings)
      expect(quote.usd).toBeCloseTo(quote.total * 0.0068, 6)
      expect(quote.mxn).toBeCloseTo(quote.total * 0.13, 6)
      expect(quote.clp).toBeCloseTo(quote.total * 6.54, 6)
    }),
  )
})

test('property: shipping never decreases as the weight grows', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SHIPPING_METHODS),
      fc.constantFrom(...REGIONS),
      fc.integer({ min: 0, max: 400 }),
      fc.integer({ min: 0, max: 400 }),
      (method, region, a, b) => {
        const limits = WEIGHT_LIMITS[method]
        const toWeight = (n: number) => Math.min(limits.maxG, limits.minG + n * limits.stepG)
        const [light, heavy] = [toWeight(Math.min(a, b)), toWeight(Math.max(a, b))]
        const lightPrice = shippingPrice(tables[method], region, light)
        const heavyPrice = shippingPrice(tables[method], region, heavy)
        expect(lightPrice).not.toBeNull()
        expect(heavyPrice ?? 0).toBeGreaterThanOrEqual(lightPrice ?? 0)
      },
    ),
  )
})

test('property: invalid prices are always rejected, never priced', () => {
  const invalid = fc.oneof(
    fc.integer({ min: -MAX_ITEM_PRICE_JPY, max: -1 }).map(String),
    fc.integer({ min: MAX_ITEM_PRICE_JPY + 1, max: Number.MAX_SAFE_INTEGER }).map(String),
    // Decimals with one or two digits (three after a separator are thousands: "2.500" is 2500).
    fc
      .double({ min: 0.01, max: 1e6, noNaN: true })
      .map((n) => n.toFixed(2))
      .filter((text) => !text.endsWith('.00')),
    fc.string().filter((s) => /[a-zA-Z]/.test(s) && !/^\s*[+-]?\d/.test(s)),
    fc.constantFrom('NaN', '-Infinity', 'Infinity', '1e999', '--1', '1-1', '0x10'),
  )
  fc.assert(
    fc.property(invalid, (input) => {
      expect(parseItemPrice(input).ok).toBe(false)
    }),
  )
})

test('property: weights outside the range or off the step are always rejected', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...SHIPPING_METHODS),
      fc.integer({ min: -100_000, max: 100_000 }),
      (method, weight) => {
        const limits = WEIGHT_LIMITS[method]
        const valid = weight >= limits.minG && weight <= limits.maxG && weight % limits.stepG === 0
        expect(parseWeight(method, String(weight)).ok).toBe(valid)
      },
    ),
  )
})
