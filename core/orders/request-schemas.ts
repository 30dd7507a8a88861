import { z } from 'zod'
import { MAX_PHOTO_BYTES } from '#core/uploads/photo-rules.ts'

// One schema for the request form (in the browser) and the server. Messages are i18n keys under
// `requests.errors` (app/locales/*/account.ts), but a photo's are under `errors.reasons`. Field
// names follow Conform's: items[0].url. Nothing here is a price: the server prices a request,
// so a price or total a customer sends is not read (a key the schema does not name is dropped).

export const REQUEST_LIMITS = {
  items: 10,
  url: 2000,
  notes: 2000,
  quantity: 99,
  /** One optional photo per item, each at most this many bytes (core/uploads/photo-rules.ts)… */
  photoBytes: MAX_PHOTO_BYTES,
  /** …and all of a request's photos together at most this many (30 MiB). */
  photosBytes: 30 * 1024 * 1024,
} as const

/**
 * The largest body the request form may post (its photos and 1 MiB for the rest): the server
 * refuses a longer one before reading it (server/app.ts), and the form parser stops there too.
 */
export const REQUEST_FORM_BODY_BYTES = REQUEST_LIMITS.photosBytes + 1024 * 1024

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/** Only web addresses: javascript:, data:, file: and the rest are refused. */
function isWebAddress(value: string) {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
  } catch {
    return false
  }
}

const url = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(REQUEST_LIMITS.url, { error: 'urlTooLong', abort: true })
  .refine((value) => !CONTROL_CHARACTERS.test(value) && !/\s/.test(value), {
    error: 'urlInvalid',
    abort: true,
  })
  .refine((value) => /^https?:\/\//i.test(value), { error: 'urlScheme', abort: true })
  .refine(isWebAddress, { error: 'urlInvalid' })

/** A whole number 1–99; empty is 1. "1.5", "-1", "abc" are refused, not rounded or guessed. */
const quantity = z.preprocess(
  (value) => {
    if (value === undefined || value === null || value === '') return 1
    if (typeof value !== 'string') return value
    const text = value.trim()
    if (text === '') return 1
    return /^[+-]?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN
  },
  z
    .number({ error: 'quantityWhole' })
    .int({ error: 'quantityWhole' })
    .min(1, { error: 'quantityRange' })
    .max(REQUEST_LIMITS.quantity, { error: 'quantityRange' }),
)

const optionalText = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z
    .string({ error: 'invalidCharacters' })
    .trim()
    .max(REQUEST_LIMITS.notes, { error: 'notesTooLong', abort: true })
    .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'invalidCharacters' })
    .optional(),
)

/**
 * An optional photo of the item: a file. A file input left empty sends an empty file without a
 * name, which is no photo. Only what the browser can tell before sending is checked here (empty,
 * too large); what the file really is, the server finds out from its bytes (core/uploads/images.ts).
 * The messages are the server's refusals' (`errors.reasons.photo…`, app/locales/<lang>/common.ts).
 */
const photo = z.preprocess(
  (value) => (value instanceof Blob && value.size === 0 && (value as File).name === '' ? undefined : value),
  z
    .instanceof(Blob, { error: 'photoType' })
    .refine((file) => file.size > 0, { error: 'photoEmpty', abort: true })
    .refine((file) => file.size <= REQUEST_LIMITS.photoBytes, { error: 'photoTooLarge' })
    .optional(),
)

export const RequestItemSchema = z.object({ url, quantity, notes: optionalText, photo })

/** The bytes of a request's photos together. */
export function photosBytes(items: readonly { photo?: Blob | undefined }[]): number {
  return items.reduce((sum, item) => sum + (item.photo?.size ?? 0), 0)
}

export const SubmitRequestSchema = z.object({
  items: z.preprocess(
    (value) => value ?? [],
    z
      .array(RequestItemSchema, { error: 'noItems' })
      .min(1, { error: 'noItems' })
      .max(REQUEST_LIMITS.items, { error: 'tooManyItems' })
      .refine((items) => photosBytes(items) <= REQUEST_LIMITS.photosBytes, { error: 'photosTooLarge' }),
  ),
  note: optionalText,
  // The form's one-time token (the page makes a new one each time it shows the form): the same
  // form sent twice (a double click, a resend) is one request. An unreadable one is no token.
  submissionKey: z.uuid().optional().catch(undefined),
})

export type SubmitRequestInput = z.output<typeof SubmitRequestSchema>

export const CANCEL_REASON_MAX = 1000

/**
 * Cancelling: which request, the version the page showed (compare-and-set), and why: staff must
 * say it, the customer may (docs/decisions/037); the customer's e-mail repeats it.
 */
export const CancelRequestSchema = z.object({
  id: z.uuid({ error: 'invalid' }),
  version: z.coerce.number({ error: 'invalid' }).int({ error: 'invalid' }).min(0, { error: 'invalid' }),
  reason: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z
      .string({ error: 'invalidCharacters' })
      .trim()
      .max(CANCEL_REASON_MAX, { error: 'reasonTooLong', abort: true })
      .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'invalidCharacters' })
      .optional(),
  ),
})

export type CancelRequestInput = z.output<typeof CancelRequestSchema>

/** Conform's name for an issue's path (items[0].url): now in core/shared, with the refusal it names. */
export { fieldNameOf } from '#core/shared/input-errors.ts'
