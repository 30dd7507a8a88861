import { z } from 'zod'
import { freeText, id, RequestVersionSchema } from '#core/orders/quote-schemas.ts'
import { REQUEST_LIMITS } from '#core/orders/request-schemas.ts'
import { MAX_PHOTO_BYTES } from '#core/uploads/photo-rules.ts'

// The warehouse's forms on a request page (docs/decisions/027): one schema for the browser and
// the server. Messages are i18n keys under `arrival.errors` (app/locales/*/admin.ts).

export const ARRIVAL_LIMITS = {
  /** Whole grams: what Japan Post's heaviest parcel (EMS, 30 kg) can carry. */
  weightGrams: { min: 1, max: 30_000 },
  shelf: 40,
  note: 2000,
  photos: 8,
} as const

/** Whole grams, as staff type them: "850", "1200", "1,200", "1.200" or "1 200" (no decimals). */
export function parseGrams(value: unknown): number | 'weightWhole' | 'weightRequired' {
  if (typeof value === 'number') return Number.isInteger(value) ? value : 'weightWhole'
  if (typeof value !== 'string') return 'weightWhole'
  const text = value
    .normalize('NFKC')
    .trim()
    .replace(/\s*(g|gr|gramos|grams)$/i, '')
  if (text === '') return 'weightRequired'
  if (/^\d{1,3}([,.\s]\d{3})+$/.test(text)) return Number(text.replace(/[,.\s]/g, ''))
  if (/^\d{1,9}$/.test(text)) return Number(text)
  return 'weightWhole'
}

/** Whole grams from 1 g to 30 kg, as staff type them (`parseGrams`). */
export const grams = z.unknown().transform((value, context) => {
  const parsed = parseGrams(value)
  if (typeof parsed === 'string') {
    context.addIssue({ code: 'custom', message: parsed })
    return z.NEVER
  }
  if (parsed < ARRIVAL_LIMITS.weightGrams.min || parsed > ARRIVAL_LIMITS.weightGrams.max) {
    context.addIssue({ code: 'custom', message: 'weightRange' })
    return z.NEVER
  }
  return parsed
})

const checked = z.preprocess((value) => value === 'on' || value === true || value === 'true', z.boolean())

/** One item line of the arrival form: ticked when it is in this package, with its weight. */
const ArrivalItemSchema = z
  .object({ id, received: checked, weight: z.unknown().optional() })
  .transform((item, context) => {
    if (!item.received) return { id: item.id, received: false as const, weightGrams: null }
    const weight = grams.safeParse(item.weight)
    if (!weight.success) {
      for (const issue of weight.error.issues)
        context.addIssue({ code: 'custom', message: issue.message, path: ['weight'] })
      return z.NEVER
    }
    return { id: item.id, received: true as const, weightGrams: weight.data }
  })

/**
 * A package booked in: the items of this request it holds (at least one ticked), each one's
 * weight in whole grams, the shelf it sits on and notes on its condition. Photos come beside it
 * as files (the service checks them).
 */
export const BookArrivalSchema = RequestVersionSchema.extend({
  items: z.preprocess(
    (value) => value ?? [],
    z
      .array(ArrivalItemSchema, { error: 'invalid' })
      .min(1, { error: 'invalid' })
      .max(REQUEST_LIMITS.items, { error: 'invalid' })
      .refine((items) => items.some((item) => item.received), { error: 'noItemTicked' }),
  ),
  shelf: freeText(ARRIVAL_LIMITS.shelf, 'shelfTooLong', { required: 'shelfRequired' }),
  note: freeText(ARRIVAL_LIMITS.note, 'noteTooLong', { required: null }),
})
export type BookArrivalInput = z.input<typeof BookArrivalSchema>

/** Every item still to buy marked as bought at the shop. */
export const MarkOrderedSchema = RequestVersionSchema

/** The arrival form's largest body: 8 photos of 5 MiB and the rest of the form. */
export const ARRIVAL_FORM_BODY_BYTES = ARRIVAL_LIMITS.photos * MAX_PHOTO_BYTES + 1024 * 1024
