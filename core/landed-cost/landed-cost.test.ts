import { describe, expect, it } from 'vitest'
import { SEED_IMPORT_RULES, SEED_METHOD_RULES } from '#core/seed/data/import-rules.ts'
import { canUseMethod, methodsFor, rulesForDay } from './destination-rules.ts'
import { ImportRuleSchema, type ImportRuleVersion, ruleInEffect } from './import-rules.ts'
import { type CustomsRates, estimateImport, importEstimateFor, ruleWarnings } from './landed-cost.ts'

// Round rates make each threshold a round yen amount: USD 1 = ¥100, EUR 1 = ¥200.
const rates: CustomsRates = { USD: 0.01, EUR: 0.005 }

const versions: ImportRuleVersion[] = SEED_IMPORT_RULES.map((seed, index) => ({
  id: `seed-${index}`,
  country: seed.country,
  effectiveFrom: seed.effectiveFrom,
  rule: seed.rule,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
}))
const blocks = SEED_METHOD_RULES.map(({ country, method, available, note, source, effectiveFrom }) => ({
  country,
  method,
  available,
  note,
  source,
  effectiveFrom,
}))
const TODAY = '2026-11-27'
const rules = (day = TODAY) => rulesForDay({ versions, blocks }, day)

function estimate(
  country: string,
  goodsJpy: number,
  shippingJpy: number | null = 0,
  categories = 1,
  day = TODAY,
) {
  return importEstimateFor(rules(day), country, { goodsJpy, shippingJpy, categories, rates }).estimate
}

/** The figures of an estimate that tests compare. */
function figures(
  country: string,
  goodsJpy: number,
  shippingJpy: number | null = 0,
  categories = 1,
  day = TODAY,
) {
  const result = estimate(country, goodsJpy, shippingJpy, categories, day)
  if (result.kind === 'estimate')
    return {
      band: result.band,
      duty: result.dutyJpy,
      vat: result.vatJpy,
      fees: result.feesJpy,
      total: result.importJpy,
      itemTariff: result.itemTariff,
    }
  return result.kind === 'formal' ? { formal: result.limit } : { noRule: true }
}

describe('the seeded rules', () => {
  it('are all usable rules, dated, with an https source', () => {
    for (const seed of SEED_IMPORT_RULES) {
      expect(ImportRuleSchema.safeParse(seed.rule).success, seed.country).toBe(true)
      expect(seed.effectiveFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(seed.rule.source.split('\n').every((line) => line.startsWith('https://'))).toBe(true)
      expect(seed.rule.note.es.length > 0 && seed.rule.note.en.length > 0).toBe(true)
    }
  })

  it('cover the issue’s countries and every EU member', () => {
    const countries = new Set(SEED_IMPORT_RULES.map((seed) => seed.country))
    for (const country of ['MX', 'CL', 'AR', 'CO', 'PE', 'ES', 'US', 'DE', 'FR', 'IT', 'PT', 'SE'])
      expect(countries.has(country), country).toBe(true)
    expect(
      [...countries].filter((country) => !['MX', 'CL', 'AR', 'CO', 'PE', 'US'].includes(country)),
    ).toHaveLength(27)
  })
})

describe('Chile: 19 % VAT from the first dollar, 6 % duty above USD 500 (goods and shipping)', () => {
  it('at USD 500 counts the shipping and charges VAT only', () => {
    expect(figures('CL', 45_000, 5_000)).toEqual({
      band: 0,
      duty: 0,
      vat: 9_500,
      fees: 0,
      total: 9_500,
      itemTariff: false,
    })
  })
  it('one yen above adds the duty, and VAT on value plus duty', () => {
    // 50,001 × 6 % = 3,000.06 → 3,000; (50,001 + 3,000) × 19 % = 10,070.19 → 10,070.
    expect(figures('CL', 45_001, 5_000)).toEqual({
      band: 1,
      duty: 3_000,
      vat: 10_070,
      fees: 0,
      total: 13_070,
      itemTariff: false,
    })
  })
  it('a small parcel pays VAT too', () => {
    expect(figures('CL', 1_000, 0)).toMatchObject({ band: 0, vat: 190, total: 190 })
  })
  it('says customs collect it', () => {
    const result = estimate('CL', 10_000)
    expect(result.kind === 'estimate' && result.collectedBy).toBe('customs')
  })
})

describe('Mexico: a flat 33.5 % up to USD 2,500, then a formal entry', () => {
  it('at USD 2,500 (goods and shipping) charges the flat rate', () => {
    expect(figures('MX', 240_000, 10_000)).toEqual({
      band: 0,
      duty: 83_750,
      vat: 0,
      fees: 0,
      total: 83_750,
      itemTariff: false,
    })
  })
  it('one yen above is not estimated', () => {
    expect(figures('MX', 240_001, 10_000)).toEqual({ formal: 2_500 })
  })
  it('rounds half up to the yen', () => {
    // 1,001 × 33.5 % = 335.335 → 335; 1,003 × 33.5 % = 336.005 → 336.
    expect(figures('MX', 1_001)).toMatchObject({ duty: 335 })
    expect(figures('MX', 1_003)).toMatchObject({ duty: 336 })
  })
  it('is marked flat and uncertain', () => {
    const frozen = importEstimateFor(rules(), 'MX', { goodsJpy: 5_000, shippingJpy: 0, categories: 1, rates })
    expect(frozen.estimate.kind === 'estimate' && frozen.estimate.flat).toBe(true)
    expect(frozen.uncertain.en).toContain('Japan–Mexico')
  })
})

describe('the USA: no de minimis; the item’s tariff is said, not guessed', () => {
  it('today: no duty-free amount, the item tariff named', () => {
    expect(figures('US', 100)).toEqual({ band: 0, duty: 0, vat: 0, fees: 0, total: 0, itemTariff: true })
    expect(figures('US', 5_000_000)).toMatchObject({ itemTariff: true })
  })
  it('from 24 Feb to 24 Jul 2026, the 10 % surcharge on the goods only', () => {
    expect(figures('US', 20_000, 5_000, 1, '2026-02-24')).toMatchObject({ duty: 2_000, itemTariff: true })
    expect(figures('US', 20_000, 5_000, 1, '2026-07-24')).toMatchObject({ duty: 2_000 })
    expect(figures('US', 20_000, 5_000, 1, '2026-07-25')).toMatchObject({ duty: 0 })
  })
  it('before the first rule there is none', () => {
    expect(figures('US', 20_000, 0, 1, '2026-02-23')).toEqual({ noRule: true })
  })
  it('cannot use the economic method (Japan Post), only express', () => {
    expect(methodsFor(rules(), 'US').map((choice) => [choice.method, choice.available])).toEqual([
      ['economic', false],
      ['express', true],
    ])
    expect(methodsFor(rules(), 'US')[0]?.note?.en).toContain('27 August 2025')
    expect(canUseMethod(rules(), 'CO', 'economic')).toBe(false)
    expect(canUseMethod(rules(), 'CL', 'economic')).toBe(true)
    // Before the stop, the method was open.
    expect(canUseMethod(rules('2025-08-26'), 'US', 'economic')).toBe(true)
  })
})

describe('Spain and the EU: VAT from the first euro, EUR 3 per kind of item from July 2026', () => {
  it('up to EUR 150 (goods and shipping): VAT and EUR 3 per category', () => {
    // EUR 150 = ¥30,000; VAT 21 % = 6,300; 2 categories × EUR 3 = EUR 6 = ¥1,200.
    expect(figures('ES', 25_000, 5_000, 2)).toEqual({
      band: 0,
      duty: 0,
      vat: 6_300,
      fees: 1_200,
      total: 7_500,
      itemTariff: false,
    })
  })
  it('above EUR 150: no fixed duty, the item’s tariff said', () => {
    expect(figures('ES', 25_001, 5_000, 2)).toEqual({
      band: 1,
      duty: 0,
      vat: 6_300,
      fees: 0,
      total: 6_300,
      itemTariff: true,
    })
  })
  it('before 1 July 2026 there was no fixed duty', () => {
    expect(figures('ES', 25_000, 5_000, 2, '2026-06-30')).toMatchObject({ fees: 0, vat: 6_300 })
    expect(figures('ES', 25_000, 5_000, 2, '2026-07-01')).toMatchObject({ fees: 1_200 })
  })
  it('another member state uses its own VAT', () => {
    expect(figures('DE', 10_000, 0)).toMatchObject({ vat: 1_900, fees: 600 })
    expect(figures('HU', 10_000, 0)).toMatchObject({ vat: 2_700 })
  })
  it('counts at least one category', () => {
    expect(figures('ES', 10_000, 0, 0)).toMatchObject({ fees: 600 })
  })
})

describe('Argentina: first USD 400 free of duty, VAT 21 %, up to USD 3,000 (goods only)', () => {
  it('at USD 400: VAT only; shipping is not counted', () => {
    expect(figures('AR', 40_000, 9_999)).toEqual({
      band: 0,
      duty: 0,
      vat: 8_400,
      fees: 0,
      total: 8_400,
      itemTariff: false,
    })
  })
  it('above USD 400: the item’s tariff on the excess is said', () => {
    expect(figures('AR', 40_001)).toMatchObject({ band: 1, vat: 8_400, itemTariff: true })
  })
  it('at USD 3,000 still the courier regime; above, a formal entry', () => {
    expect(figures('AR', 300_000)).toMatchObject({ band: 1 })
    expect(figures('AR', 300_001)).toEqual({ formal: 3_000 })
  })
  it('warns of the yearly shipments, the units of one item and the tax id', () => {
    const rule = rules().rules.AR?.rule ?? null
    const result = estimateImport({ rule, goodsJpy: 50_000, shippingJpy: 0, categories: 1, rates })
    expect(
      ruleWarnings({ rule, estimate: result, shipmentsThisYear: 2, valueThisYear: 0, unitsOfOneItem: 4 }),
    ).toEqual([
      { kind: 'shipmentsPerYear', limit: 5, used: 2, onlyWithoutTaxId: false },
      { kind: 'unitsPerItem', limit: 3, units: 4 },
      { kind: 'taxIdRequired' },
      { kind: 'overThreshold', threshold: 400, currency: 'USD' },
    ])
    const three = ruleWarnings({
      rule,
      estimate: result,
      shipmentsThisYear: 0,
      valueThisYear: 0,
      unitsOfOneItem: 3,
    })
    expect(three.some((warning) => warning.kind === 'unitsPerItem')).toBe(false)
  })
})

describe('Colombia: VAT-free only up to USD 50 since 2026; duty above USD 200 (goods only)', () => {
  it('up to USD 50: nothing', () => {
    expect(figures('CO', 5_000, 3_000)).toEqual({
      band: 0,
      duty: 0,
      vat: 0,
      fees: 0,
      total: 0,
      itemTariff: false,
    })
  })
  it('above USD 50 up to USD 200: VAT only', () => {
    expect(figures('CO', 5_001)).toMatchObject({ band: 1, duty: 0, vat: 950 })
    expect(figures('CO', 20_000)).toMatchObject({ band: 1, duty: 0, vat: 3_800 })
  })
  it('above USD 200: 10 % duty and VAT on value plus duty', () => {
    // 20,001 × 10 % = 2,000.1 → 2,000; 22,001 × 19 % = 4,180.19 → 4,180.
    expect(figures('CO', 20_001)).toMatchObject({ band: 2, duty: 2_000, vat: 4_180, total: 6_180 })
  })
  it('in 2025 up to USD 200 paid nothing', () => {
    expect(figures('CO', 20_000, 0, 1, '2025-12-31')).toMatchObject({ band: 0, total: 0 })
    expect(figures('CO', 20_001, 0, 1, '2025-12-31')).toMatchObject({ band: 1, duty: 2_000 })
  })
})

describe('Peru: exempt up to USD 200, 4 % + IGV to USD 2,000 (goods and shipping)', () => {
  it('at USD 200 nothing', () => {
    expect(figures('PE', 15_000, 5_000)).toMatchObject({ band: 0, total: 0 })
  })
  it('one yen above: 4 % and IGV 18 % on value plus duty', () => {
    // 20,001 × 4 % = 800.04 → 800; 20,801 × 18 % = 3,744.18 → 3,744.
    expect(figures('PE', 15_001, 5_000)).toMatchObject({ band: 1, duty: 800, vat: 3_744, total: 4_544 })
  })
  it('above USD 2,000 a formal entry', () => {
    expect(figures('PE', 195_000, 5_000)).toMatchObject({ band: 1 })
    expect(figures('PE', 195_001, 5_000)).toEqual({ formal: 2_000 })
  })
  it('warns of the yearly limits for buyers without a tax id', () => {
    const rule = rules().rules.PE?.rule ?? null
    const result = estimateImport({ rule, goodsJpy: 1_000, shippingJpy: 0, categories: 1, rates })
    expect(
      ruleWarnings({ rule, estimate: result, shipmentsThisYear: 1, valueThisYear: 250, unitsOfOneItem: 1 }),
    ).toEqual([
      { kind: 'shipmentsPerYear', limit: 3, used: 1, onlyWithoutTaxId: true },
      { kind: 'valuePerYear', limit: 1_000, used: 250, currency: 'USD', onlyWithoutTaxId: true },
    ])
  })
})

describe('a country without rules', () => {
  it('gets no estimate and says so', () => {
    expect(figures('JP', 10_000)).toEqual({ noRule: true })
    expect(figures('BR', 10_000)).toEqual({ noRule: true })
    const frozen = importEstimateFor(rules(), 'BR', { goodsJpy: 1, shippingJpy: 0, categories: 1, rates })
    expect(frozen).toMatchObject({ ruleId: null, effectiveFrom: null, source: '' })
  })
  it('can use every method', () => {
    expect(methodsFor(rules(), 'BR').every((choice) => choice.available && choice.note === null)).toBe(true)
  })
})

describe('ruleInEffect', () => {
  const at = (effectiveFrom: string, second: number) => ({
    effectiveFrom,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)),
  })
  it('takes the latest that took effect on or before the day', () => {
    const list = [at('2025-01-01', 0), at('2026-01-01', 1), at('2027-01-01', 2)]
    expect(ruleInEffect(list, '2026-06-01')).toBe(list[1])
    expect(ruleInEffect(list, '2026-01-01')).toBe(list[1])
    expect(ruleInEffect(list, '2025-12-31')).toBe(list[0])
    expect(ruleInEffect(list, '2024-12-31')).toBeNull()
  })
  it('of two with one date, the one written last (a correction)', () => {
    const list = [at('2026-01-01', 5), at('2026-01-01', 9), at('2026-01-01', 7)]
    expect(ruleInEffect(list, '2026-02-01')).toBe(list[1])
  })
})

describe('ImportRuleSchema refuses what cannot be estimated', () => {
  const good = SEED_IMPORT_RULES.find((seed) => seed.country === 'CL')?.rule
  it('bands out of order', () => {
    const bands = [...(good?.bands ?? [])].reverse()
    expect(ImportRuleSchema.safeParse({ ...good, bands }).success).toBe(false)
  })
  it('a last band with an upper end that is not a formal entry', () => {
    const bands = good?.bands.map((band) => ({ ...band, upTo: band.upTo ?? 900 }))
    expect(ImportRuleSchema.safeParse({ ...good, bands }).success).toBe(false)
  })
  it('rates above 100 %, negative fees, no bands, an empty source', () => {
    const band = good?.bands[0]
    expect(
      ImportRuleSchema.safeParse({ ...good, bands: [{ ...band, upTo: null, vatBp: 10_001 }] }).success,
    ).toBe(false)
    expect(ImportRuleSchema.safeParse({ ...good, handlingFeeMinor: -1 }).success).toBe(false)
    expect(ImportRuleSchema.safeParse({ ...good, bands: [] }).success).toBe(false)
    expect(ImportRuleSchema.safeParse({ ...good, source: ' ' }).success).toBe(false)
    expect(ImportRuleSchema.safeParse({ ...good, currency: 'JPY' }).success).toBe(false)
  })
})
