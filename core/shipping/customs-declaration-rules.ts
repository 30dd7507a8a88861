import { z } from 'zod'
import { MAX_SHIPMENT_ITEMS } from './shipment-schemas.ts'

/**
 * The customs declaration's rules (issue 30), pure and isomorphic: the lines built from what the
 * customer paid, which form (CN22 or CN23) the parcel needs, and what a description and an HS
 * code may be. The service (customs-declaration.ts) reads and writes them; the pages show them.
 *
 * Values are the prices paid for the items (their lines on the paid quote), in whole yen, and no
 * one may change them: the customer writes the descriptions, staff add HS codes. Messages are
 * i18n keys under `declaration.errors` (app/locales/*\/account.ts).
 */

/**
 * CN22 for contents valued at less than 300 SDR, CN23 at 300 SDR or more: Japan Post, "Customs
 * Declaration Form" (https://www.post.japanpost.jp/int/use/writing/customs_en.html, read
 * 2026-11-27), the UPU Convention's rule. The yen limit uses ¥200 per SDR, a little under the
 * rate of 2025–26 (about ¥205–210), so a parcel near the limit gets a CN23, which is always
 * accepted (parcel and EMS labels carry CN23 forms anyway). Strictly below: CN22.
 */
export const CN22_LIMIT_SDR = 300
export const YEN_PER_SDR = 200
export const CN22_LIMIT_JPY = CN22_LIMIT_SDR * YEN_PER_SDR

/**
 * Above ¥200,000 the goods need an export declaration to Japan Customs before posting: Japan
 * Customs, Tokyo, "Can you tell me the process to send international mail?"
 * (https://www.customs.go.jp/tokyo/english/yuubin/postal_qa/yusyututetuzukitookurenaimono.html).
 */
export const EXPORT_DECLARATION_OVER_JPY = 200_000

export const ORIGIN_COUNTRY = 'JP'
export const DESCRIPTION_MAX = 120
const HS_INPUT_MAX = 20

export type CustomsForm = 'CN22' | 'CN23'

/** The form a parcel with contents of this total value needs. */
export function customsFormFor(totalValueJpy: number): CustomsForm {
  return totalValueJpy < CN22_LIMIT_JPY ? 'CN22' : 'CN23'
}

/** What the declaration starts from for one item of the shipment. */
export type DeclarableItem = {
  itemId: string
  title: string | null
  /** The item's line on its paid quote (price × quantity), when found. */
  paid: { quantity: number; amountJpy: number } | null
  /** The quote's price and quantity on the item itself (the same numbers the line froze). */
  quantity: number
  unitPriceJpy: number | null
  /** The warehouse's weight of the item (all its units), when weighed. */
  weightGrams: number | null
}

export type DeclarationLine = {
  itemId: string
  position: number
  /** Null until someone writes one customs accepts. */
  description: string | null
  quantity: number
  valueJpy: number
  netWeightG: number | null
  /** Digits only; `formatHsCode` shows it. */
  hsCode: string | null
  originCountry: string
}

/** What someone wrote before on a line (a stored declaration), kept when the lines are rebuilt. */
export type WrittenLine = { itemId: string | null; description: string | null; hsCode: string | null }

/**
 * The lines for these items, in their order: quantity and value from the paid line (else the
 * quote's price × quantity), the warehouse weight, origin Japan; the description and HS code
 * someone wrote before for the item, else the item's title when customs would accept it.
 *
 * The value is the item's own line on the quote: the shop's price × quantity the customer paid
 * for the goods. Our service fee (a buying commission), the shop's shipping to our office and the
 * Japanese consumption tax on the quote are other lines and are not added (to be confirmed with
 * the business; changing it is this one place).
 */
export function buildDeclarationLines(
  items: readonly DeclarableItem[],
  written: readonly WrittenLine[] = [],
): DeclarationLine[] {
  const before = new Map(written.filter((line) => line.itemId).map((line) => [line.itemId, line]))
  return items.map((item, index) => {
    const kept = before.get(item.itemId)
    const quantity = item.paid?.quantity ?? item.quantity
    const valueJpy = item.paid?.amountJpy ?? (item.unitPriceJpy ?? 0) * item.quantity
    return {
      itemId: item.itemId,
      position: index + 1,
      description: kept ? kept.description : defaultDescription(item.title),
      quantity,
      valueJpy,
      netWeightG: item.weightGrams,
      hsCode: kept?.hsCode ?? null,
      originCountry: ORIGIN_COUNTRY,
    }
  })
}

function defaultDescription(title: string | null): string | null {
  if (!title) return null
  const cleaned = title.replace(/\s+/g, ' ').trim()
  return descriptionProblem(cleaned) === null ? cleaned : null
}

export type DeclarationTotals = {
  quantity: number
  valueJpy: number
  /** Null when an item was never weighed. */
  netWeightG: number | null
  form: CustomsForm
  exportDeclaration: boolean
  /** Lines still without a description: the declaration cannot be confirmed. */
  missingDescriptions: number
}

export function declarationTotals(lines: readonly DeclarationLine[]): DeclarationTotals {
  const valueJpy = lines.reduce((sum, line) => sum + line.valueJpy, 0)
  const weighed = lines.every((line) => line.netWeightG !== null)
  return {
    quantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    valueJpy,
    netWeightG: weighed ? lines.reduce((sum, line) => sum + (line.netWeightG ?? 0), 0) : null,
    form: customsFormFor(valueJpy),
    exportDeclaration: valueJpy > EXPORT_DECLARATION_OVER_JPY,
    missingDescriptions: lines.filter((line) => !line.description).length,
  }
}

// Words customs refuse on their own: Japan Post asks for "a detailed description of the
// contents" and names "daily necessities" as too vague; "gift" describes no goods.
const VAGUE = new Set([
  'gift',
  'gifts',
  'present',
  'presents',
  'goods',
  'item',
  'items',
  'merchandise',
  'product',
  'products',
  'stuff',
  'things',
  'various',
  'misc',
  'miscellaneous',
  'sample',
  'samples',
  'daily necessities',
  'personal items',
  'personal effects',
  'other',
])

// Latin letters (English as customs wants it; accents tolerated), digits and the punctuation
// descriptions use: "Anime figure, PVC (20 cm)", "T-shirt 100% cotton".
const DESCRIPTION_CHARACTERS = /^[\p{Script=Latin}0-9 ,.'’()\-/&+%:#"]+$/u

/** Why customs would refuse this (already trimmed) description, as a message key; null if fine. */
export function descriptionProblem(description: string): string | null {
  if (description === '') return 'descriptionRequired'
  if (description.length > DESCRIPTION_MAX) return 'descriptionTooLong'
  if (!DESCRIPTION_CHARACTERS.test(description)) return 'descriptionLetters'
  const letters = description.match(/\p{Script=Latin}/gu)?.length ?? 0
  const words = description
    .toLowerCase()
    .replace(/[^\p{Script=Latin} ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  if (letters < 3 || VAGUE.has(words)) return 'descriptionVague'
  return null
}

/**
 * An HS code as people write it ("9503.00", "9503.00.0090", "950300"): digits and dots, 6 to 10
 * digits. Returns the digits, null for an empty field, or undefined when it is not one.
 */
export function parseHsCode(written: string): string | null | undefined {
  const trimmed = written.replace(/\s+/g, '')
  if (trimmed === '') return null
  if (!/^[0-9]+(\.[0-9]+)*$/.test(trimmed)) return undefined
  const digits = trimmed.replaceAll('.', '')
  return digits.length >= 6 && digits.length <= 10 ? digits : undefined
}

/** 950300 → 9503.00; 9503000090 → 9503.00.0090 (heading.subheading.national). */
export function formatHsCode(digits: string): string {
  return [digits.slice(0, 4), digits.slice(4, 6), digits.slice(6)].filter(Boolean).join('.')
}

const id = z.uuid({ error: 'invalid' })

/** The version the page showed: blank for a declaration not saved yet. */
const versionField = z.preprocess(
  (value) => (value === '' || value === undefined || value === null ? null : value),
  z.union([
    z.null(),
    z.coerce.number({ error: 'invalid' }).int({ error: 'invalid' }).min(0, { error: 'invalid' }),
  ]),
)

const description = z
  .string({ error: 'invalid' })
  .max(DESCRIPTION_MAX * 4, { error: 'descriptionTooLong', abort: true })
  .transform((value, ctx) => {
    const cleaned = value.replace(/\s+/g, ' ').trim()
    const problem = descriptionProblem(cleaned)
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: value })
    return cleaned
  })

/** Staff may leave a description for the customer to write: blank is null. */
const staffDescription = z
  .string({ error: 'invalid' })
  .max(DESCRIPTION_MAX * 4, { error: 'descriptionTooLong', abort: true })
  .transform((value, ctx): string | null => {
    const cleaned = value.replace(/\s+/g, ' ').trim()
    if (cleaned === '') return null
    const problem = descriptionProblem(cleaned)
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: value })
    return cleaned
  })

const hsCode = z
  .string({ error: 'invalid' })
  .max(HS_INPUT_MAX, { error: 'hsCodeInvalid', abort: true })
  .transform((value, ctx): string | null => {
    const parsed = parseHsCode(value)
    if (parsed === undefined) {
      ctx.issues.push({ code: 'custom', message: 'hsCodeInvalid', input: value })
      return null
    }
    return parsed
  })

function linesOf<Line extends z.ZodType>(line: Line) {
  return z
    .array(line, { error: 'invalid' })
    .min(1, { error: 'invalid' })
    .max(MAX_SHIPMENT_ITEMS, { error: 'invalid' })
    .refine(
      (lines) => new Set(lines.map((entry) => (entry as { itemId: string }).itemId)).size === lines.length,
      { error: 'invalid' },
    )
}

/** The customer's review: every line's description, and whether they confirm the declaration. */
export const ReviewDeclarationSchema = z.object({
  id,
  version: versionField,
  lines: linesOf(z.object({ itemId: id, description })),
  confirm: z.boolean({ error: 'invalid' }).default(false),
})
export type ReviewDeclarationInput = z.output<typeof ReviewDeclarationSchema>

/** Staff's edit: descriptions (blank leaves one to the customer) and HS codes (blank: none). */
export const StaffDeclarationSchema = z.object({
  id,
  version: versionField,
  lines: linesOf(z.object({ itemId: id, description: staffDescription, hsCode })),
})
export type StaffDeclarationInput = z.output<typeof StaffDeclarationSchema>
