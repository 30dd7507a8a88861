import { z } from 'zod'
import { parseWholeNumber } from '#core/money/parse-yen.ts'
import { SHIPPING_METHODS } from '#core/pricing/pricing.ts'
import { cleanText, decimalNumber, group, isRecord } from '#core/shared/form-values.ts'
import {
  COLLECTORS,
  type ImportBand,
  type ImportRule,
  ImportRuleSchema,
  RULE_CURRENCIES,
  RULE_LIMITS,
  VALUE_BASES,
} from './import-rules.ts'

/**
 * The admin forms of the import rules (/admin-dashboard/import-rules, issue 30): a new version of
 * a country's rule, and whether a destination can use one of our shipping methods. Pure and
 * isomorphic: what a person types, read into an `ImportRule` or refused field by field.
 *
 * Percentages are typed as people type them ("19", "33,5", "33.5 %") and kept as basis points;
 * fees in the rule's currency ("3", "2,99") as minor units; thresholds in whole units ("2,500").
 * Messages are keys: the generic ones of `adminForm.errors` ("required", "tooLong"), and this
 * form's own as whole keys under `importRules.errors` (a message with a dot is a whole key).
 *
 * The bands grid works as the rate editor's: rows marked for removal and wholly empty rows (the
 * spare ones at the bottom) are dropped, the rest are read cell by cell (errors on the cell:
 * `bands[2].vatPercent`) and put in order of their upper end (no upper end last), so a band
 * added at the bottom lands in its place. Two bands with one upper end, two without one, none at
 * all, too many, or a last band with an upper end that is not a formal entry are refused on the
 * whole grid (`bands`).
 */

/** Empty rows under the bands, to add one without JavaScript. */
export const SPARE_BANDS = 2

const E = (key: string) => `importRules.errors.${key}`

/** The columns of a band row (field names `bands[1].vatPercent`). */
export const BAND_TEXT_COLUMNS = ['upTo', 'dutyPercent', 'vatPercent', 'perCategory'] as const
export const BAND_CHECK_COLUMNS = ['itemTariff', 'flat', 'formal'] as const
export type BandFormRow = Record<(typeof BAND_TEXT_COLUMNS)[number], string> &
  Partial<Record<(typeof BAND_CHECK_COLUMNS)[number] | 'remove', string>>

export const BLANK_BAND: BandFormRow = { upTo: '', dutyPercent: '', vatPercent: '', perCategory: '' }

/** A day as a date field sends it (YYYY-MM-DD), a real one from 2000 to 2099. */
export function dayField() {
  return z.preprocess(
    (value) => value ?? '',
    z.unknown().transform((value, ctx): string => {
      if (typeof value !== 'string') return fail(ctx, 'invalid', value)
      const day = value.trim()
      if (day === '') return fail(ctx, 'required', value)
      const match = /^(20\d\d)-(\d\d)-(\d\d)$/.exec(day)
      const date = match ? new Date(`${day}T00:00:00Z`) : null
      if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day)
        return fail(ctx, E('date'), value)
      return day
    }),
  )
}

function fail<T>(ctx: z.RefinementCtx<T>, message: string, input: unknown): never {
  ctx.issues.push({ code: 'custom', message, input })
  return z.NEVER as never
}

/** A percentage ("19", "33,5", "8.25 %") as basis points. */
const percentBp = () =>
  decimalNumber({
    max: 100,
    decimals: 2,
    rangeKey: E('percentRange'),
    decimalsKey: E('percentDecimals'),
    suffix: '%',
  }).transform((percent) => Math.round(percent * 100))

/** An amount in the rule's currency ("3", "2,99") as minor units; empty is 0. */
const feeMinor = () =>
  z.preprocess(
    (value) =>
      value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
        ? '0'
        : value,
    decimalNumber({
      max: RULE_LIMITS.maxFeeMinor / 100,
      decimals: 2,
      rangeKey: E('feeRange'),
      decimalsKey: E('feeDecimals'),
    }).transform((amount) => Math.round(amount * 100)),
  )

/** A whole number from 1 to `max` ("2,500"); empty is null (no limit, no upper end). */
const optionalWhole = (max: number, rangeKey: string) =>
  z.preprocess(
    (value) => value ?? '',
    z.unknown().transform((value, ctx): number | null => {
      if (typeof value !== 'string') return fail(ctx, 'invalid', value)
      if (value.trim() === '') return null
      const parsed = parseWholeNumber(value, [])
      if (!parsed.ok) {
        if (parsed.error === 'negative' || parsed.error === 'tooLarge') return fail(ctx, rangeKey, value)
        return fail(ctx, parsed.error, value)
      }
      if (parsed.value < 1 || parsed.value > max) return fail(ctx, rangeKey, value)
      return parsed.value
    }),
  )

const threshold = () => optionalWhole(RULE_LIMITS.maxThreshold, E('thresholdRange'))
const count = () => optionalWhole(RULE_LIMITS.maxCount, E('countRange'))

/** A checkbox: "on" when ticked; anything else sent by hand is refused. */
const checkbox = () =>
  z.preprocess(
    (value) => value ?? '',
    z.unknown().transform((value, ctx): boolean => {
      if (value === 'on') return true
      if (value === '' || value === 'off') return false
      return fail(ctx, 'invalid', value)
    }),
  )

const choice = <T extends readonly [string, ...string[]]>(options: T) =>
  z.preprocess((value) => value ?? '', z.enum(options, { error: 'invalid' }))

/** Public sources: one https address a line (empty lines dropped); at least one unless `optional`. */
export const sourceLines = ({ optional = false }: { optional?: boolean } = {}) =>
  cleanText({ max: RULE_LIMITS.source, multiline: true, optional }).transform((text, ctx): string => {
    const lines = text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
    for (const line of lines) {
      let ok = false
      try {
        const url = new URL(line)
        ok = url.protocol === 'https:' && url.hostname.includes('.') && !url.username && !url.password
      } catch {}
      if (!ok) return fail(ctx, E('sourceLines'), text)
    }
    return lines.join('\n')
  })

const note = () => cleanText({ max: RULE_LIMITS.note, multiline: true, optional: true })

const BandInput = z.preprocess(
  (value) => (isRecord(value) ? value : {}),
  z.object({
    upTo: z.unknown().optional(),
    dutyPercent: z.unknown().optional(),
    vatPercent: z.unknown().optional(),
    perCategory: z.unknown().optional(),
    itemTariff: z.unknown().optional(),
    flat: z.unknown().optional(),
    formal: z.unknown().optional(),
    remove: z.unknown().optional(),
  }),
)

const CELL_READERS = {
  upTo: threshold(),
  dutyPercent: percentBp(),
  vatPercent: percentBp(),
  perCategory: feeMinor(),
  itemTariff: checkbox(),
  flat: checkbox(),
  formal: checkbox(),
} as const

const blank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '')

export const ImportRuleFormSchema = z
  .object({
    effectiveFrom: dayField(),
    currency: choice(RULE_CURRENCIES),
    valueBasis: choice(VALUE_BASES),
    // The grid shows the bands and a few spare rows; far more is not from the editor.
    bands: z.preprocess(
      (value) => (Array.isArray(value) ? value : []),
      z.array(BandInput).max(RULE_LIMITS.bands + SPARE_BANDS + 2, { error: E('tooManyBands') }),
    ),
    handlingFee: feeMinor(),
    collectedBy: choice(COLLECTORS),
    taxName: cleanText({ max: RULE_LIMITS.taxName }),
    shipmentsPerYear: count(),
    valuePerYear: threshold(),
    limitsApplyTo: choice(['everyone', 'without_tax_id'] as const),
    maxUnitsPerItem: count(),
    taxIdRequired: checkbox(),
    note: group({ es: note(), en: note() }),
    uncertain: group({ es: note(), en: note() }),
    source: sourceLines(),
  })
  .transform((input, ctx): { effectiveFrom: string; rule: ImportRule } => {
    const issue = (message: string, path: (string | number)[]) =>
      ctx.issues.push({ code: 'custom', message, input, path })
    const read: { index: number; band: ImportBand }[] = []
    input.bands.forEach((raw, index) => {
      if (raw.remove === 'on') return
      const texts = [raw.upTo, raw.dutyPercent, raw.vatPercent, raw.perCategory]
      const checks = [raw.itemTariff, raw.flat, raw.formal]
      if (texts.every(blank) && checks.every(blank)) return
      const band: Record<string, unknown> = {}
      let ok = true
      for (const [column, reader] of Object.entries(CELL_READERS)) {
        const parsed = reader.safeParse(raw[column as keyof typeof CELL_READERS])
        if (parsed.success) band[column] = parsed.data
        else {
          issue(parsed.error.issues[0]?.message ?? 'invalid', ['bands', index, column])
          ok = false
        }
      }
      if (ok)
        read.push({
          index,
          band: {
            upTo: band.upTo as number | null,
            dutyBp: band.dutyPercent as number,
            vatBp: band.vatPercent as number,
            itemTariff: band.itemTariff as boolean,
            flat: band.flat as boolean,
            perCategoryMinor: band.perCategory as number,
            formal: band.formal as boolean,
          },
        })
    })
    if (ctx.issues.length > 0) return z.NEVER
    const end = (band: ImportBand) => band.upTo ?? Number.POSITIVE_INFINITY
    read.sort((a, b) => end(a.band) - end(b.band))
    read.forEach((entry, position) => {
      const previous = read[position - 1]
      if (previous && previous.band.upTo === entry.band.upTo)
        issue(entry.band.upTo === null ? E('bandsOneOpenEnd') : E('bandDuplicate'), [
          'bands',
          entry.index,
          'upTo',
        ])
    })
    if (ctx.issues.length > 0) return z.NEVER
    const bands = read.map((entry) => entry.band)
    if (bands.length === 0) issue(E('bandsRequired'), ['bands'])
    else if (bands.length > RULE_LIMITS.bands) issue(E('tooManyBands'), ['bands'])
    else if (bands.at(-1)?.upTo !== null && bands.at(-1)?.formal !== true) issue(E('bandsOpenEnd'), ['bands'])
    if (ctx.issues.length > 0) return z.NEVER
    const rule: ImportRule = {
      currency: input.currency,
      valueBasis: input.valueBasis,
      bands,
      handlingFeeMinor: input.handlingFee,
      collectedBy: input.collectedBy,
      taxName: input.taxName,
      shipmentsPerYear: input.shipmentsPerYear,
      valuePerYear: input.valuePerYear,
      limitsApplyTo: input.limitsApplyTo,
      maxUnitsPerItem: input.maxUnitsPerItem,
      taxIdRequired: input.taxIdRequired,
      note: input.note,
      uncertain: input.uncertain,
      source: input.source,
    }
    // The stored shape's own check, last (what the service checks again before saving).
    const checked = ImportRuleSchema.safeParse(rule)
    if (!checked.success) {
      issue('invalid', [])
      return z.NEVER
    }
    return { effectiveFrom: input.effectiveFrom, rule: checked.data }
  })

export type ImportRuleFormOutput = z.output<typeof ImportRuleFormSchema>

/** The form's fields as text. */
export type ImportRuleFormFields = {
  effectiveFrom: string
  currency: string
  valueBasis: string
  bands: BandFormRow[]
  handlingFee: string
  collectedBy: string
  taxName: string
  shipmentsPerYear: string
  valuePerYear: string
  limitsApplyTo: string
  maxUnitsPerItem: string
  taxIdRequired: string
  note: { es: string; en: string }
  uncertain: { es: string; en: string }
  source: string
}

/** Basis points as a person writes the percentage ("19", "33.5"). */
export function percentText(bp: number): string {
  return String(bp / 100)
}

/** Minor units as the amount ("3", "2.99"). */
export function feeText(minor: number): string {
  return minor % 100 === 0 ? String(minor / 100) : (minor / 100).toFixed(2)
}

const on = (value: boolean) => (value ? 'on' : '')

/**
 * The form for a new version: the rule in effect (or a blank one for a country without rules),
 * dated `day`, with spare band rows.
 */
export function importRuleFormFields(rule: ImportRule | null, day: string): ImportRuleFormFields {
  const bands: BandFormRow[] = (rule?.bands ?? []).map((band) => ({
    upTo: band.upTo === null ? '' : String(band.upTo),
    dutyPercent: percentText(band.dutyBp),
    vatPercent: percentText(band.vatBp),
    perCategory: band.perCategoryMinor === 0 ? '' : feeText(band.perCategoryMinor),
    itemTariff: on(band.itemTariff),
    flat: on(band.flat),
    formal: on(band.formal),
  }))
  const spare = Math.min(SPARE_BANDS, RULE_LIMITS.bands + SPARE_BANDS - bands.length)
  return {
    effectiveFrom: day,
    currency: rule?.currency ?? 'USD',
    valueBasis: rule?.valueBasis ?? 'goods',
    bands: [
      ...bands,
      ...Array.from({ length: Math.max(spare, bands.length === 0 ? 2 : 0) }, () => BLANK_BAND),
    ],
    handlingFee: rule ? feeText(rule.handlingFeeMinor) : '0',
    collectedBy: rule?.collectedBy ?? 'customs',
    taxName: rule?.taxName ?? '',
    shipmentsPerYear: rule?.shipmentsPerYear ? String(rule.shipmentsPerYear) : '',
    valuePerYear: rule?.valuePerYear ? String(rule.valuePerYear) : '',
    limitsApplyTo: rule?.limitsApplyTo ?? 'everyone',
    maxUnitsPerItem: rule?.maxUnitsPerItem ? String(rule.maxUnitsPerItem) : '',
    taxIdRequired: on(rule?.taxIdRequired ?? false),
    note: { ...(rule?.note ?? { es: '', en: '' }) },
    uncertain: { ...(rule?.uncertain ?? { es: '', en: '' }) },
    source: rule?.source ?? '',
  }
}

/**
 * Whether a destination can use one of our methods (service `setMethod`): available or not, why
 * in both languages (required when it is not: customers read why a method is missing), the
 * source, since when. `country` only on the list page's form (the country page's is its address).
 */
const methodShape = {
  method: choice(SHIPPING_METHODS),
  available: choice(['yes', 'no'] as const),
  note: group({ es: note(), en: note() }),
  source: sourceLines({ optional: true }),
  effectiveFrom: dayField(),
}

function whyRequired(
  input: { available: 'yes' | 'no'; note: { es: string; en: string } },
  ctx: z.RefinementCtx,
) {
  if (input.available === 'no')
    for (const language of ['es', 'en'] as const)
      if (!input.note[language])
        ctx.addIssue({ code: 'custom', message: E('noteRequired'), path: ['note', language] })
}

export const MethodFormSchema = z
  .object(methodShape)
  .superRefine(whyRequired)
  .transform((input) => ({ ...input, available: input.available === 'yes' }))

export type MethodFormOutput = z.output<typeof MethodFormSchema>

/** The list page's form: a country first (checked against the country list by the page). */
export const NewMethodFormSchema = z
  .object({
    country: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim().toUpperCase() : (value ?? '')),
      z.string({ error: 'invalid' }).regex(/^[A-Z]{2}$/, { error: E('country') }),
    ),
    ...methodShape,
  })
  .superRefine(whyRequired)
  .transform((input) => ({ ...input, available: input.available === 'yes' }))
