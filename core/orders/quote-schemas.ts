import { z } from 'zod'
import { parseYen } from '#core/money/parse-yen.ts'
import { MAX_ITEM_PRICE_JPY } from '#core/pricing/pricing.ts'
import { REQUEST_LIMITS } from './request-schemas.ts'

// The staff forms of a request page (pricing, approve, reject, revise, notes): one schema for the
// browser and the server. Messages are i18n keys under `quote.errors` (app/locales/*/admin.ts).
// Yen are read as the calculator reads them (parseYen, ADR 013): "2500", "2.500", "¥2,500",
// "2,500円", full-width digits; decimals, negatives and words are refused, never rounded.

export const QUOTE_LIMITS = {
  unitPriceJpy: { min: 1, max: MAX_ITEM_PRICE_JPY },
  domesticShippingJpy: { min: 0, max: 1_000_000 },
  title: 300,
  reason: 1000,
  note: 2000,
} as const

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '')

/** A whole yen amount between `min` and `max`; blank is "not entered" (undefined). */
function yen({ min, max }: { min: number; max: number }, rangeError: string) {
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : value),
    z
      .union([z.string(), z.number()], { error: 'notNumber' })
      .transform((value, context) => {
        const parsed = parseYen(value)
        if (!parsed.ok) {
          const message =
            parsed.error === 'tooLarge'
              ? rangeError
              : parsed.error === 'required'
                ? 'notNumber'
                : parsed.error
          context.addIssue({ code: 'custom', message })
          return z.NEVER
        }
        if (parsed.value < min || parsed.value > max) {
          context.addIssue({ code: 'custom', message: rangeError })
          return z.NEVER
        }
        return parsed.value
      })
      .optional(),
  )
}

/** Free text of at most `max` characters: no control characters (line breaks are fine). */
export function freeText(max: number, tooLong: string, { required }: { required: string | null }) {
  const base = z
    .string({ error: 'invalidCharacters' })
    .trim()
    .max(max, { error: tooLong, abort: true })
    .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'invalidCharacters' })
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : value),
    required === null
      ? base.optional()
      : z
          .string({ error: (issue) => (issue.input === undefined ? required : 'invalidCharacters') })
          .pipe(base),
  )
}

export const id = z.uuid({ error: 'invalid' })
export const version = z.coerce
  .number({ error: 'invalid' })
  .int({ error: 'invalid' })
  .min(0, { error: 'invalid' })

/** Which request, and the version the page showed (compare-and-set). */
export const RequestVersionSchema = z.object({ id, version })
export type RequestVersionInput = z.output<typeof RequestVersionSchema>

export const QuoteDraftItemSchema = z.object({
  id,
  title: freeText(QUOTE_LIMITS.title, 'titleTooLong', { required: null }),
  unitPrice: yen(QUOTE_LIMITS.unitPriceJpy, 'priceRange'),
  domesticShipping: yen(QUOTE_LIMITS.domesticShippingJpy, 'shippingRange'),
})

/**
 * Staff's prices for a request still being quoted: a title, a yen price and the shop's delivery
 * to our office per item. Any may stay blank in a draft; approving needs a title and a price.
 */
export const SaveQuoteDraftSchema = RequestVersionSchema.extend({
  items: z.preprocess(
    (value) => value ?? [],
    z
      .array(QuoteDraftItemSchema, { error: 'invalid' })
      .min(1, { error: 'invalid' })
      .max(REQUEST_LIMITS.items, { error: 'invalid' }),
  ),
})
export type SaveQuoteDraftInput = z.input<typeof SaveQuoteDraftSchema>

export const RejectRequestSchema = RequestVersionSchema.extend({
  reason: freeText(QUOTE_LIMITS.reason, 'reasonTooLong', { required: 'reasonRequired' }),
})
export type RejectRequestInput = z.input<typeof RejectRequestSchema>

export const NOTE_VISIBILITIES = ['internal', 'customer'] as const

/** A note on the request: internal (staff only) or for the customer (shown and sent to them). */
export const AddNoteSchema = RequestVersionSchema.extend({
  text: freeText(QUOTE_LIMITS.note, 'noteTooLong', { required: 'noteRequired' }),
  visibility: z.enum(NOTE_VISIBILITIES, { error: 'visibility' }),
})
export type AddNoteInput = z.input<typeof AddNoteSchema>
