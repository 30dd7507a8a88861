import { z } from 'zod'

/**
 * A destination country's import rules as data (issue 30, docs/decisions/046): what its customs
 * charge on a parcel from Japan sent to a person, by value band, in the currency its thresholds
 * are written in. Stored as versions (db/schema/import-rules.ts): each took effect on a date and
 * names its public source; admins add a version, never rewrite one, so an estimate printed on a
 * receipt keeps the rule it was made with. Pure and isomorphic: the calculator reads the same
 * rules in the browser.
 *
 * Amounts in the rule's currency are whole units for thresholds ("USD 200") and minor units for
 * fees ("EUR 3" is 300), as the sources write them. Rates are basis points (19 % is 1900).
 */

export const RULE_CURRENCIES = ['USD', 'EUR'] as const
export type RuleCurrency = (typeof RULE_CURRENCIES)[number]

/** What the customs value counts: the goods only (FOB), or the goods and the shipping (CIF). */
export const VALUE_BASES = ['goods', 'goods_and_shipping'] as const
export type ValueBasis = (typeof VALUE_BASES)[number]

/** Who asks the customer for the money: customs before release, or the post or courier at the door. */
export const COLLECTORS = ['customs', 'carrier'] as const
export type Collector = (typeof COLLECTORS)[number]

export const RULE_LIMITS = {
  bands: 6,
  maxThreshold: 1_000_000,
  maxRateBp: 10_000,
  maxFeeMinor: 1_000_000,
  taxName: 12,
  note: 1_000,
  source: 1_000,
  maxCount: 1_000,
} as const

const bilingualText = (max: number) =>
  z.object({ es: z.string().trim().max(max), en: z.string().trim().max(max) })

export const ImportBandSchema = z.object({
  /** The band holds customs values up to this amount (inclusive); null: no upper end. */
  upTo: z.number().int().min(1).max(RULE_LIMITS.maxThreshold).nullable(),
  /** Duty on the customs value. */
  dutyBp: z.number().int().min(0).max(RULE_LIMITS.maxRateBp),
  /** VAT (IVA, IGV…) on the customs value plus the duty. */
  vatBp: z.number().int().min(0).max(RULE_LIMITS.maxRateBp),
  /** The item's own tariff line adds duty this estimate cannot know (said, never guessed). */
  itemTariff: z.boolean(),
  /** One rate standing for duty and VAT together (Mexico's courier regime). */
  flat: z.boolean(),
  /** A fixed duty per item category in the parcel, in minor units (the EU's EUR 3 from July 2026). */
  perCategoryMinor: z.number().int().min(0).max(RULE_LIMITS.maxFeeMinor),
  /** Above the simplified regime: a formal import entry, which this service does not estimate. */
  formal: z.boolean(),
})
export type ImportBand = z.output<typeof ImportBandSchema>

export const ImportRuleSchema = z
  .object({
    currency: z.enum(RULE_CURRENCIES),
    valueBasis: z.enum(VALUE_BASES),
    bands: z.array(ImportBandSchema).min(1).max(RULE_LIMITS.bands),
    /** What the post or courier adds for clearing the parcel, in minor units. */
    handlingFeeMinor: z.number().int().min(0).max(RULE_LIMITS.maxFeeMinor),
    collectedBy: z.enum(COLLECTORS),
    /** The tax's name as the country writes it: IVA, IGV, VAT. */
    taxName: z.string().trim().min(1).max(RULE_LIMITS.taxName),
    /** Shipments a person may import a year under this regime (Argentina: 5); null: no limit. */
    shipmentsPerYear: z.number().int().min(1).max(RULE_LIMITS.maxCount).nullable(),
    /** Value a person may import a year (whole units); null: no limit. */
    valuePerYear: z.number().int().min(1).max(RULE_LIMITS.maxThreshold).nullable(),
    /** Whether the yearly limits bind everyone or only buyers without a tax id (Peru). */
    limitsApplyTo: z.enum(['everyone', 'without_tax_id']),
    /** Units of one item a parcel may hold (Argentina: 3); null: no limit. */
    maxUnitsPerItem: z.number().int().min(1).max(RULE_LIMITS.maxCount).nullable(),
    taxIdRequired: z.boolean(),
    /** What people trip on, shown before they pay. */
    note: bilingualText(RULE_LIMITS.note),
    /** What is not confirmed; empty when everything traces to the source. */
    uncertain: bilingualText(RULE_LIMITS.note),
    /** The public source(s), one address per line. */
    source: z.string().trim().min(1).max(RULE_LIMITS.source),
  })
  .superRefine((rule, ctx) => {
    rule.bands.forEach((band, index) => {
      const previous = rule.bands[index - 1]
      if (previous && (previous.upTo === null || (band.upTo !== null && band.upTo <= previous.upTo)))
        ctx.addIssue({ code: 'custom', message: 'bandsAscending', path: ['bands', index, 'upTo'] })
    })
    if (rule.bands.at(-1)?.upTo !== null && rule.bands.at(-1)?.formal !== true)
      ctx.addIssue({ code: 'custom', message: 'bandsOpenEnd', path: ['bands'] })
  })
export type ImportRule = z.output<typeof ImportRuleSchema>

/** One stored version of a country's rule. */
export type ImportRuleVersion = {
  id: string
  country: string
  /** YYYY-MM-DD: the day the rule took effect (in the destination). */
  effectiveFrom: string
  rule: ImportRule
  createdAt: Date
}

/**
 * The version in effect on `day` (YYYY-MM-DD): the latest that took effect on or before it; of
 * two with one date, the one written last (a correction). Null: no rule yet.
 */
export function ruleInEffect<T extends Pick<ImportRuleVersion, 'effectiveFrom' | 'createdAt'>>(
  versions: readonly T[],
  day: string,
): T | null {
  let best: T | null = null
  for (const version of versions) {
    if (version.effectiveFrom > day) continue
    if (
      !best ||
      version.effectiveFrom > best.effectiveFrom ||
      (version.effectiveFrom === best.effectiveFrom && version.createdAt > best.createdAt)
    )
      best = version
  }
  return best
}

/** The day (YYYY-MM-DD) in UTC, the form rules are dated in. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10)
}
