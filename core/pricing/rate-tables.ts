import { z } from 'zod'
import { parseGrams, parseYen } from '#core/money/parse-yen.ts'
import { isRecord } from '#core/shared/form-values.ts'
import {
  type RateRow,
  REGIONS,
  type Region,
  SHIPPING_METHODS,
  type ShippingMethod,
  shippingPrice,
  WEIGHT_LIMITS,
} from './pricing.ts'

/**
 * Editing a shipping rate table (/admin-dashboard/rates): what makes a table usable, the form
 * that edits one, and the preview of a change on sample weights. Pure and isomorphic.
 *
 * A usable table: at least one row, at most RATE_TABLE_LIMITS.rows; ceilings in whole grams,
 * strictly ascending (each row covers the weights above the previous ceiling up to its own);
 * every price a whole number of yen of at least 1; and the last ceiling at least the method's
 * largest weight (WEIGHT_LIMITS), so every weight the calculators accept has a price.
 */

export const RATE_TABLE_LIMITS = { rows: 60, maxCeilingG: 30_000, maxPriceJpy: 1_000_000 } as const

export type RateTableProblem =
  | { kind: 'noRows' | 'tooManyRows' | 'coverage' }
  | { kind: 'notAscending' | 'ceilingRange' | 'price'; index: number }

/** Every problem of a table (empty: it can be saved). The service checks again before saving. */
export function rateTableProblems(method: ShippingMethod, rows: readonly RateRow[]): RateTableProblem[] {
  const problems: RateTableProblem[] = []
  if (rows.length === 0) return [{ kind: 'noRows' }]
  if (rows.length > RATE_TABLE_LIMITS.rows) problems.push({ kind: 'tooManyRows' })
  rows.forEach((row, index) => {
    if (!Number.isInteger(row.ceilingG) || row.ceilingG < 1 || row.ceilingG > RATE_TABLE_LIMITS.maxCeilingG)
      problems.push({ kind: 'ceilingRange', index })
    const previous = rows[index - 1]
    if (previous && !(row.ceilingG > previous.ceilingG)) problems.push({ kind: 'notAscending', index })
    const pricesOk = REGIONS.every((region) => {
      const price = row.prices[region]
      return Number.isInteger(price) && price >= 1 && price <= RATE_TABLE_LIMITS.maxPriceJpy
    })
    if (!pricesOk) problems.push({ kind: 'price', index })
  })
  const last = rows.at(-1)
  if (last && last.ceilingG < WEIGHT_LIMITS[method].maxG) problems.push({ kind: 'coverage' })
  return problems
}

/** The columns of a row in the form (field names `rows[3].usa` and so on). */
export const RATE_FORM_COLUMNS = ['ceilingG', ...REGIONS] as const
export type RateFormColumn = (typeof RATE_FORM_COLUMNS)[number]

/** A row as the form holds it: text in each column, and "on" when it is to be removed. */
export type RateFormRow = Record<RateFormColumn, string> & { remove?: string }

/** The steps of the editor: edit the grid, preview the change, save it (or go back to editing). */
export const RATE_STEPS = ['preview', 'save', 'edit'] as const
export type RateStep = (typeof RATE_STEPS)[number]

/** A cell as text ('' when empty); null for what no form cell sends (several values, an object). */
function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null
}

const RowInput = z.preprocess(
  (value) => (isRecord(value) ? value : {}),
  z.object({
    ceilingG: z.unknown().optional(),
    asia: z.unknown().optional(),
    europe_canada_mexico: z.unknown().optional(),
    usa: z.unknown().optional(),
    central_south_america: z.unknown().optional(),
    remove: z.unknown().optional(),
  }),
)

/**
 * The editor's form. Rows marked for removal and rows left wholly empty (the spare rows at the
 * bottom, for adding) are dropped; the rest are read cell by cell (errors on the cell: `rows[2].usa`)
 * and put in ascending order of ceiling, so a row added at the bottom lands in its place. Two rows
 * with one ceiling, no row at all, or a table that stops short of the method's largest weight are
 * refused on the whole table (`rows`). Messages are keys of `adminForm.errors`.
 */
export const RateTableFormSchema = z
  .object({
    method: z.enum(SHIPPING_METHODS, { error: 'unknownTable' }),
    version: z.preprocess((value) => (typeof value === 'string' ? value.slice(0, 64) : ''), z.string()),
    step: z.enum(RATE_STEPS).catch('preview'),
    // The editor shows its rows and a few spare ones; far more is not from the editor.
    rows: z.preprocess(
      (value) => (Array.isArray(value) ? value : []),
      z.array(RowInput).max(RATE_TABLE_LIMITS.rows + 10, { error: 'tooManyRows' }),
    ),
  })
  .transform((input, ctx) => {
    const issue = (message: string, path: (string | number)[]) =>
      ctx.issues.push({ code: 'custom', message, input, path })
    const read: { index: number; row: RateRow }[] = []
    input.rows.forEach((raw, index) => {
      if (raw.remove === 'on') return
      const cells = RATE_FORM_COLUMNS.map((column) => textOf(raw[column])?.trim())
      if (cells.every((cell) => cell === '')) return
      let ok = true
      for (const column of RATE_FORM_COLUMNS) {
        if (textOf(raw[column]) === null) {
          issue('invalid', ['rows', index, column])
          ok = false
        }
      }
      if (!ok) return
      const ceiling = parseGrams(textOf(raw.ceilingG))
      if (!ceiling.ok) {
        issue(ceiling.error === 'negative' || ceiling.error === 'tooLarge' ? 'ceilingRange' : ceiling.error, [
          'rows',
          index,
          'ceilingG',
        ])
        ok = false
      } else if (ceiling.value < 1 || ceiling.value > RATE_TABLE_LIMITS.maxCeilingG) {
        issue('ceilingRange', ['rows', index, 'ceilingG'])
        ok = false
      }
      const prices = {} as Record<Region, number>
      for (const region of REGIONS) {
        const price = parseYen(textOf(raw[region]))
        if (!price.ok) {
          issue(
            price.error === 'negative'
              ? 'pricePositive'
              : price.error === 'tooLarge'
                ? 'priceRange'
                : price.error,
            ['rows', index, region],
          )
          ok = false
        } else if (price.value < 1) {
          issue('pricePositive', ['rows', index, region])
          ok = false
        } else if (price.value > RATE_TABLE_LIMITS.maxPriceJpy) {
          issue('priceRange', ['rows', index, region])
          ok = false
        } else prices[region] = price.value
      }
      if (ok && ceiling.ok) read.push({ index, row: { ceilingG: ceiling.value, prices } })
    })
    if (ctx.issues.length > 0) return z.NEVER
    read.sort((a, b) => a.row.ceilingG - b.row.ceilingG)
    read.forEach((entry, position) => {
      const previous = read[position - 1]
      if (previous && previous.row.ceilingG === entry.row.ceilingG)
        issue('ceilingDuplicate', ['rows', entry.index, 'ceilingG'])
    })
    if (ctx.issues.length > 0) return z.NEVER
    const rows = read.map((entry) => entry.row)
    for (const problem of rateTableProblems(input.method, rows)) {
      // Ascending order, ceilings and prices are settled above; what is left is the table's.
      if (problem.kind === 'noRows' || problem.kind === 'tooManyRows' || problem.kind === 'coverage')
        issue(problem.kind, ['rows'])
    }
    if (ctx.issues.length > 0) return z.NEVER
    return { method: input.method, version: input.version, step: input.step, rows }
  })

export type RateTableFormOutput = z.output<typeof RateTableFormSchema>

/** A table as the form's rows (what the grid shows first). */
export function rateFormRows(rows: readonly RateRow[]): RateFormRow[] {
  return rows.map((row) => ({
    ceilingG: String(row.ceilingG),
    asia: String(row.prices.asia),
    europe_canada_mexico: String(row.prices.europe_canada_mexico),
    usa: String(row.prices.usa),
    central_south_america: String(row.prices.central_south_america),
  }))
}

/** The empty rows under a table, to add to it without JavaScript. */
export const SPARE_ROWS = 3

export const BLANK_ROW: RateFormRow = {
  ceilingG: '',
  asia: '',
  europe_canada_mexico: '',
  usa: '',
  central_south_america: '',
}

export type RatePreview = {
  /** Sample weights: the method's range at its ends, quarters and default, and each changed ceiling in it. */
  samples: { weightG: number; prices: Record<Region, { before: number | null; after: number | null }> }[]
  added: number[]
  removed: number[]
  changed: number[]
}

/** What a change does: today's price and the new one for sample weights in every region. */
export function previewRateChange(
  method: ShippingMethod,
  before: readonly RateRow[],
  after: readonly RateRow[],
): RatePreview {
  const old = new Map(before.map((row) => [row.ceilingG, row]))
  const next = new Map(after.map((row) => [row.ceilingG, row]))
  const added = after.filter((row) => !old.has(row.ceilingG)).map((row) => row.ceilingG)
  const removed = before.filter((row) => !next.has(row.ceilingG)).map((row) => row.ceilingG)
  const changed = after
    .filter((row) => {
      const was = old.get(row.ceilingG)
      return was && REGIONS.some((region) => was.prices[region] !== row.prices[region])
    })
    .map((row) => row.ceilingG)
  const { minG, maxG, stepG, defaultG } = WEIGHT_LIMITS[method]
  const onStep = (grams: number) => Math.min(maxG, Math.max(minG, Math.round(grams / stepG) * stepG))
  const weights = new Set([minG, defaultG, maxG])
  for (const quarter of [0.25, 0.5, 0.75]) weights.add(onStep(minG + (maxG - minG) * quarter))
  for (const ceiling of [...added, ...removed, ...changed])
    if (ceiling >= minG && ceiling <= maxG) weights.add(ceiling)
  return {
    samples: [...weights]
      .sort((a, b) => a - b)
      .map((weightG) => ({
        weightG,
        prices: Object.fromEntries(
          REGIONS.map((region) => [
            region,
            { before: shippingPrice(before, region, weightG), after: shippingPrice(after, region, weightG) },
          ]),
        ) as RatePreview['samples'][number]['prices'],
      })),
    added,
    removed,
    changed,
  }
}
