import { z } from 'zod'
import { LANGUAGES } from '#core/preferences/preferences.ts'
import { isCountryCode } from './countries.ts'

// One schema per form of the profile tab, for the browser and the server alike (the services parse
// again: routes are not their only callers). Messages are i18n keys under `profile.errors`
// (app/locales/*/account.ts); `tooLong` is shown with the field's limit from PROFILE_LIMITS.
// Parsing is idempotent: a parsed value parses to itself.

/** Lengths, as the database's checks allow them (db/schema/customers.ts; the name as better-auth's). */
export const PROFILE_LIMITS = {
  name: 100,
  phone: 40,
  addressName: 120,
  street: 300,
  city: 120,
  region: 120,
  postalCode: 20,
  /** Addresses one customer may keep. */
  addresses: 10,
} as const

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/
/**
 * Angle brackets never belong in a name or an address, and these texts go on to shipping labels,
 * customs forms and e-mails: refused rather than stored.
 */
const MARKUP = /[<>]/

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value

/** One line of plain text, trimmed, 1 to `max` characters. */
function line(max: number) {
  return z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required', abort: true })
    .max(max, { error: 'tooLong', abort: true })
    .refine((value) => !CONTROL_CHARACTERS.test(value) && !MARKUP.test(value), {
      error: 'invalidCharacters',
    })
}

/** The same, or nothing (stored as an empty text where the column has no null). */
function optionalLine(max: number) {
  return z.preprocess(blankToUndefined, line(max).optional())
}

/**
 * A phone number as people write it: digits, spaces, ( ) and -, an optional + first; 6 to 15
 * digits (E.164 has at most 15). Kept as typed, trimmed.
 */
const phone = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(PROFILE_LIMITS.phone, { error: 'tooLong', abort: true })
  .refine((value) => /^\+?[0-9 ()-]+$/.test(value), { error: 'phoneInvalid', abort: true })
  .refine(
    (value) => {
      const digits = value.replace(/\D/g, '').length
      return digits >= 6 && digits <= 15
    },
    { error: 'phoneInvalid' },
  )

export const ProfileSchema = z.object({
  name: line(PROFILE_LIMITS.name),
  phone: z.preprocess(blankToUndefined, phone.optional()),
  language: z.enum(LANGUAGES, { error: 'language' }),
})

export type ProfileInput = z.output<typeof ProfileSchema>

/** A postal code: letters, digits, spaces and hyphens ("06700", "SW1A 1AA", "1000-001"). */
const postalCode = z.preprocess(
  blankToUndefined,
  z
    .string({ error: 'invalidCharacters' })
    .trim()
    .max(PROFILE_LIMITS.postalCode, { error: 'tooLong', abort: true })
    .refine((value) => /^[\p{L}\p{N} -]+$/u.test(value), { error: 'postalCodeInvalid' })
    .optional(),
)

export const AddressSchema = z.object({
  fullName: line(PROFILE_LIMITS.addressName),
  street: line(PROFILE_LIMITS.street),
  city: line(PROFILE_LIMITS.city),
  region: optionalLine(PROFILE_LIMITS.region),
  postalCode,
  country: z
    .string({ error: 'country' })
    .trim()
    .refine((value) => isCountryCode(value), { error: 'country' }),
  phone,
  /** A ticked "make this my default address"; unticked changes nothing. */
  makeDefault: z.preprocess((value) => value === 'on' || value === true, z.boolean({ error: 'invalid' })),
})

export type AddressInput = z.output<typeof AddressSchema>

/** Which address a button is about (make default, delete). */
export const AddressIdSchema = z.object({ id: z.uuid({ error: 'invalid' }) })
