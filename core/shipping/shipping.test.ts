import { describe, expect, test } from 'vitest'
import { shippingReceiptTotals } from '#core/billing/receipt-totals.ts'
import { COUNTRY_CODES } from '#core/customers/countries.ts'
import type { RateTables } from '#core/pricing/pricing.ts'
import { destinationForCountry } from './destinations.ts'
import { estimateShipment } from './shipment-estimate.ts'

const prices = (n: number) => ({
  asia: n,
  europe_canada_mexico: n + 1000,
  usa: n + 2000,
  central_south_america: n + 3000,
})
const RATES: RateTables = {
  economic: [
    { ceilingG: 500, prices: prices(1000) },
    { ceilingG: 2000, prices: prices(2000) },
  ],
  express: [
    { ceilingG: 1000, prices: prices(3000) },
    { ceilingG: 5000, prices: prices(5000) },
  ],
}

describe('destinations', () => {
  test('the spec’s destinations keep their region and route', () => {
    expect(destinationForCountry('MX')).toEqual({
      code: 'MX',
      region: 'europe_canada_mexico',
      route: 'direct',
    })
    expect(destinationForCountry('CL')).toEqual({
      code: 'CL',
      region: 'central_south_america',
      route: 'direct',
    })
    for (const code of ['PY', 'EC', 'BO', 'CO'])
      expect(destinationForCountry(code)).toEqual({ code, region: 'usa', route: 'courier_via_usa' })
  })

  test('other countries follow Japan Post’s zones', () => {
    expect(destinationForCountry('KR')?.region).toBe('asia')
    expect(destinationForCountry('DE')?.region).toBe('europe_canada_mexico')
    expect(destinationForCountry('AU')?.region).toBe('europe_canada_mexico')
    expect(destinationForCountry('AE')?.region).toBe('europe_canada_mexico')
    expect(destinationForCountry('PR')?.region).toBe('usa')
    expect(destinationForCountry('BR')?.region).toBe('central_south_america')
    expect(destinationForCountry('GT')?.region).toBe('central_south_america')
    expect(destinationForCountry('ZA')?.region).toBe('central_south_america')
  })

  test('every address country has a destination; Japan and nonsense have none', () => {
    for (const code of COUNTRY_CODES) expect(destinationForCountry(code), code).not.toBeNull()
    for (const code of ['JP', 'XX1', '', 'mx', "' OR 1=1"]) expect(destinationForCountry(code)).toBeNull()
  })
})

describe('the estimate of a shipment', () => {
  const peru = destinationForCountry('PE')
  const colombia = destinationForCountry('CO')
  if (!peru || !colombia) throw new Error('destinations missing')

  test('sums the weights and the packing allowance and prices by the table', () => {
    expect(
      estimateShipment({
        itemWeightsG: [250, 400],
        packingAllowanceG: 200,
        method: 'economic',
        destination: peru,
        rates: RATES,
        storage: [],
        taxRateBasisPoints: 1000,
      }),
    ).toEqual({
      ok: true,
      weightG: 850,
      priceJpy: 5000,
      deliveryTime: 'economic',
      route: 'direct',
      region: 'central_south_america',
      storage: [],
      storageFeeJpy: 0,
      taxJpy: 0,
      totalJpy: 5000,
    })
    expect(
      estimateShipment({
        itemWeightsG: [100],
        packingAllowanceG: 0,
        method: 'express',
        destination: colombia,
        rates: RATES,
        storage: [],
        taxRateBasisPoints: 1000,
      }),
    ).toMatchObject({
      ok: true,
      weightG: 100,
      priceJpy: 5000,
      deliveryTime: 'express',
      route: 'courier_via_usa',
    })
  })

  test('economic above 2 kg and express above 10 kg say why', () => {
    expect(
      estimateShipment({
        itemWeightsG: [1900],
        packingAllowanceG: 200,
        method: 'economic',
        destination: peru,
        rates: RATES,
        storage: [],
        taxRateBasisPoints: 1000,
      }),
    ).toEqual({ ok: false, refusal: 'tooHeavy', weightG: 2100, maxG: 2000 })
    expect(
      estimateShipment({
        itemWeightsG: [9900, 200],
        packingAllowanceG: 0,
        method: 'express',
        destination: peru,
        rates: RATES,
        storage: [],
        taxRateBasisPoints: 1000,
      }),
    ).toMatchObject({ ok: false, refusal: 'tooHeavy', maxG: 10000 })
  })

  test('a weight the table does not reach has no price, not a guess', () => {
    expect(
      estimateShipment({
        itemWeightsG: [6000],
        packingAllowanceG: 0,
        method: 'express',
        destination: peru,
        rates: RATES,
        storage: [],
        taxRateBasisPoints: 1000,
      }),
    ).toMatchObject({ ok: false, refusal: 'noRate', weightG: 6000 })
  })
})

describe('storage fees in the estimate (docs/decisions/037)', () => {
  const peru = destinationForCountry('PE')
  if (!peru) throw new Error('destinations missing')
  const storage = [
    { itemId: 'a', title: 'Figure', days: 11, feePerDayJpy: 100 },
    { itemId: 'b', title: 'Book', days: 0, feePerDayJpy: 100 },
    { itemId: 'c', title: 'Plush', days: 3, feePerDayJpy: 95 },
  ]

  test('the estimate adds the items past their free days, with the tax on them, to the shipping', () => {
    const estimate = estimateShipment({
      itemWeightsG: [250, 400, 100],
      packingAllowanceG: 200,
      method: 'economic',
      destination: peru,
      rates: RATES,
      storage,
      taxRateBasisPoints: 1000,
    })
    // 1,100 + 285 = 1,385 of storage, 10 % tax rounded down once: 138; the item within its free
    // days is not listed.
    expect(estimate).toMatchObject({
      ok: true,
      priceJpy: 5000,
      storageFeeJpy: 1385,
      taxJpy: 138,
      totalJpy: 5000 + 1385 + 138,
    })
    expect(estimate.ok && estimate.storage.map((line) => line.itemId)).toEqual(['a', 'c'])
  })

  test('estimate and receipt are the same function: equal for the same shipping price and days', () => {
    for (const rate of [0, 800, 1000, 1234]) {
      const estimate = estimateShipment({
        itemWeightsG: [250, 400, 100],
        packingAllowanceG: 200,
        method: 'economic',
        destination: peru,
        rates: RATES,
        storage,
        taxRateBasisPoints: rate,
      })
      if (!estimate.ok) throw new Error('no estimate')
      const receipt = shippingReceiptTotals(estimate.priceJpy, storage, rate)
      expect({
        storageFeeJpy: estimate.storageFeeJpy,
        taxJpy: estimate.taxJpy,
        totalJpy: estimate.totalJpy,
      }).toEqual({ storageFeeJpy: receipt.storageFeeJpy, taxJpy: receipt.taxJpy, totalJpy: receipt.totalJpy })
    }
  })
})
