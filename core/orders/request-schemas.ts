import { z } from 'zod'

// One schema for the request form (in the browser) and the server. Messages are i18n keys under
// `requests.errors` (app/locales/*/account.ts). Field names follow Conform's: items[0].url.

export const REQUEST_LIMITS = { items: 10, url: 2000, notes: 2000, quantity: 99 } as const

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

export const RequestItemSchema = z.object({ url, quantity, notes: optionalText })

export const SubmitRequestSchema = z.object({
  items: z.preprocess(
    (value) => value ?? [],
    z
      .array(RequestItemSchema, { error: 'noItems' })
      .min(1, { error: 'noItems' })
      .max(REQUEST_LIMITS.items, { error: 'tooManyItems' }),
  ),
  note: optionalText,
})

export type SubmitRequestInput = z.output<typeof SubmitRequestSchema>

/** Cancelling: which request, and the version the page showed (compare-and-set). */
export const CancelRequestSchema = z.object({
  id: z.uuid({ error: 'invalid' }),
  version: z.coerce.number({ error: 'invalid' }).int({ error: 'invalid' }).min(0, { error: 'invalid' }),
})

export type CancelRequestInput = z.output<typeof CancelRequestSchema>

/** Conform's name for an issue's path: items[0].url. */
export function fieldNameOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, key) => {
    if (typeof key === 'number') return `${name}[${key}]`
    return name === '' ? String(key) : `${name}.${String(key)}`
  }, '')
}
