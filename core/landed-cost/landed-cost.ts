import type { Collector, ImportRule, RuleCurrency } from './import-rules.ts'

/**
 * What a parcel will cost at the customer's door beyond what they pay us (issue 30,
 * docs/decisions/046): the import duty, the VAT and the fees the destination's rule
 * (./import-rules.ts) asks, in yen, from the goods' value (the invoice's item lines at the paid
 * prices) and, where the country counts it, the international shipping. Pure and isomorphic.
 *
 * Rounding: every amount is whole yen, rounded half up (an estimate, not a bill); a threshold is
 * compared in cents of its currency, converted at the stored rate.
 */

/** Units of each threshold currency one yen buys (the stored rates: USD from the settings' yen rates). */
export type CustomsRates = Record<RuleCurrency, number>

export type ImportEstimateInput = {
  rule: ImportRule | null
  goodsJpy: number
  /** International shipping; null while unknown (the destination's shipping is then not counted). */
  shippingJpy: number | null
  /** Item categories in the parcel (the EU's fixed duty counts them); at least 1. */
  categories: number
  rates: CustomsRates
}

export type ImportEstimate =
  | {
      kind: 'estimate'
      currency: RuleCurrency
      /** What customs value the parcel at, in yen and in the rule's currency (two decimals). */
      customsValueJpy: number
      customsValue: number
      /** Whether shipping was part of the customs value. */
      shippingCounted: boolean
      band: number
      dutyBp: number
      vatBp: number
      flat: boolean
      /** The item's own tariff adds duty not estimated here. */
      itemTariff: boolean
      dutyJpy: number
      vatJpy: number
      /** Fixed duty per category and the carrier's handling fee. */
      feesJpy: number
      /** Duty + VAT + fees: what is paid at the door. */
      importJpy: number
      collectedBy: Collector
      taxName: string
      /** The threshold the value went past to land in this band (e.g. USD 200), if any. */
      crossed: number | null
      /** The upper end of this band, if any: a parcel worth more pays more. */
      upTo: number | null
    }
  /** Above the simplified regime: a formal import entry, which we do not estimate. */
  | { kind: 'formal'; currency: RuleCurrency; customsValue: number; limit: number; collectedBy: Collector }
  | { kind: 'noRule' }

function roundHalfUp(value: number): number {
  return Math.floor(value + 0.5)
}

/** An amount in the rule's minor units as yen at the stored rate. */
function minorToYen(minor: number, rate: number): number {
  return rate > 0 ? roundHalfUp(minor / 100 / rate) : 0
}

function percentOf(amountJpy: number, basisPoints: number): number {
  return roundHalfUp((amountJpy * basisPoints) / 10_000)
}

export function estimateImport(input: ImportEstimateInput): ImportEstimate {
  const { rule } = input
  if (!rule) return { kind: 'noRule' }
  const rate = input.rates[rule.currency]
  const shippingCounted = rule.valueBasis === 'goods_and_shipping' && input.shippingJpy !== null
  const customsValueJpy =
    Math.max(0, input.goodsJpy) + (shippingCounted ? Math.max(0, input.shippingJpy ?? 0) : 0)
  const valueCents = roundHalfUp(customsValueJpy * rate * 100)
  const customsValue = valueCents / 100
  const bandIndex = rule.bands.findIndex((band) => band.upTo === null || valueCents <= band.upTo * 100)
  const index = bandIndex === -1 ? rule.bands.length - 1 : bandIndex
  const band = rule.bands[index]
  if (!band) return { kind: 'noRule' }
  const crossed = index > 0 ? (rule.bands[index - 1]?.upTo ?? null) : null
  if (band.formal || bandIndex === -1) {
    return {
      kind: 'formal',
      currency: rule.currency,
      customsValue,
      limit: crossed ?? band.upTo ?? 0,
      collectedBy: rule.collectedBy,
    }
  }
  const dutyJpy = percentOf(customsValueJpy, band.dutyBp)
  const vatJpy = percentOf(customsValueJpy + dutyJpy, band.vatBp)
  const feesJpy =
    minorToYen(band.perCategoryMinor * Math.max(1, input.categories), rate) +
    minorToYen(rule.handlingFeeMinor, rate)
  return {
    kind: 'estimate',
    currency: rule.currency,
    customsValueJpy,
    customsValue,
    shippingCounted,
    band: index,
    dutyBp: band.dutyBp,
    vatBp: band.vatBp,
    flat: band.flat,
    itemTariff: band.itemTariff,
    dutyJpy,
    vatJpy,
    feesJpy,
    importJpy: dutyJpy + vatJpy + feesJpy,
    collectedBy: rule.collectedBy,
    taxName: rule.taxName,
    crossed,
    upTo: band.upTo,
  }
}

/**
 * The limits a shipment meets before it is paid: the yearly count or value a person may import
 * (Argentina's 5 shipments, Peru's 3 imports or USD 1,000 without a tax id), the units of one
 * item, the tax id. `shipmentsThisYear` and `valueThisYear` are the customer's earlier shipments
 * to the country this calendar year (counted by the caller); `unitsOfOneItem` the largest
 * quantity of one item in the parcel.
 */
export type RuleWarning =
  | { kind: 'shipmentsPerYear'; limit: number; used: number; onlyWithoutTaxId: boolean }
  | { kind: 'valuePerYear'; limit: number; used: number; currency: RuleCurrency; onlyWithoutTaxId: boolean }
  | { kind: 'unitsPerItem'; limit: number; units: number }
  | { kind: 'taxIdRequired' }
  | { kind: 'overThreshold'; threshold: number; currency: RuleCurrency }

export function ruleWarnings(input: {
  rule: ImportRule | null
  estimate: ImportEstimate
  shipmentsThisYear: number
  /** Value (in the rule's currency) of this year's earlier shipments. */
  valueThisYear: number
  unitsOfOneItem: number
}): RuleWarning[] {
  const { rule, estimate } = input
  if (!rule) return []
  const warnings: RuleWarning[] = []
  const onlyWithoutTaxId = rule.limitsApplyTo === 'without_tax_id'
  if (rule.shipmentsPerYear !== null)
    warnings.push({
      kind: 'shipmentsPerYear',
      limit: rule.shipmentsPerYear,
      used: input.shipmentsThisYear,
      onlyWithoutTaxId,
    })
  if (rule.valuePerYear !== null)
    warnings.push({
      kind: 'valuePerYear',
      limit: rule.valuePerYear,
      used: input.valueThisYear,
      currency: rule.currency,
      onlyWithoutTaxId,
    })
  if (rule.maxUnitsPerItem !== null && input.unitsOfOneItem > rule.maxUnitsPerItem)
    warnings.push({ kind: 'unitsPerItem', limit: rule.maxUnitsPerItem, units: input.unitsOfOneItem })
  if (rule.taxIdRequired) warnings.push({ kind: 'taxIdRequired' })
  if (estimate.kind === 'estimate' && estimate.crossed !== null)
    warnings.push({ kind: 'overThreshold', threshold: estimate.crossed, currency: estimate.currency })
  return warnings
}

/**
 * An estimate as a receipt freezes it and a page shows it: the estimate with the rule's version,
 * date, source and texts, so it reads the same after the rule changes (invoices.importEstimate).
 */
export type FrozenImportEstimate = {
  country: string
  /** The version used; null when the country has no rule. */
  ruleId: string | null
  effectiveFrom: string | null
  source: string
  note: { es: string; en: string }
  uncertain: { es: string; en: string }
  rates: CustomsRates
  estimate: ImportEstimate
}

/** The estimate for `country` under the rules in effect (`rules.rules[country]`, or none). */
export function importEstimateFor(
  rules: { rules: Record<string, { id: string; effectiveFrom: string; rule: ImportRule }> },
  country: string,
  input: Omit<ImportEstimateInput, 'rule'>,
): FrozenImportEstimate {
  const version = rules.rules[country] ?? null
  const rule = version?.rule ?? null
  return {
    country,
    ruleId: version?.id ?? null,
    effectiveFrom: version?.effectiveFrom ?? null,
    source: rule?.source ?? '',
    note: rule?.note ?? { es: '', en: '' },
    uncertain: rule?.uncertain ?? { es: '', en: '' },
    rates: input.rates,
    estimate: estimateImport({ ...input, rule }),
  }
}

/** The stored rates thresholds are read with: USD from the yen rates, EUR beside them. */
export function customsRatesOf(settings: {
  yenRates: { USD: number }
  customsRates: { EUR: number }
}): CustomsRates {
  return { USD: settings.yenRates.USD, EUR: settings.customsRates.EUR }
}
