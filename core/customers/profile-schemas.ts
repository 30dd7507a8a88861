import { z } from 'zod'
import { LANGUAGES } from '#core/preferences/preferences.ts'
import { checkAddressForCountry, normalizePhone } from './address-rules.ts'
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

/**
 * A text field whose checks never abort the parse: missing and empty both read as "required",
 * each check adds its message and the next field is still read. So the address's country checks
 * (on the whole object) run when another field is wrong, in the browser too, where Conform reads
 * an empty field as missing: each field shows its own message at once.
 */
function textField(
  options: { max: number; optional?: boolean },
  check: (value: string) => string | null = () => null,
) {
  return z
    .string({ error: 'required' })
    .optional()
    .superRefine((value, ctx) => {
      const text = (value ?? '').trim()
      if (text === '') {
        if (!options.optional) ctx.addIssue({ code: 'custom', message: 'required' })
        return
      }
      if (text.length > options.max) {
        ctx.addIssue({ code: 'custom', message: 'tooLong' })
        return
      }
      const problem = check(text)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })
}

const plain = (value: string) =>
  CONTROL_CHARACTERS.test(value) || MARKUP.test(value) ? 'invalidCharacters' : null

/** One line of plain text, trimmed, 1 to `max` characters. */
function line(max: number) {
  return textField({ max }, plain).transform((value) => (value ?? '').trim())
}

/** The same, or nothing (stored as an empty text where the column has no null). */
function optionalLine(max: number) {
  return textField({ max, optional: true }, plain)
    .transform((value) => value?.trim() || undefined)
    .optional()
}

/** Digits, spaces, ( ), - and one + or 00 first, 6 to 15 digits (E.164 has at most 15). */
function phoneShape(value: string): boolean {
  const digits = value.replace(/\D/g, '').length
  return /^\+?[0-9 ().-]+$/.test(value) && digits >= 6 && digits <= 15
}

/**
 * A phone number as people write it, checked to be one that can exist (libphonenumber-js) and
 * kept in E.164 ("+525512345678"). Without a country code it is read as a number of the
 * address's country (AddressSchema, which checks and normalises it with the country), or refused
 * where there is none (the profile).
 */
function phone(options: { international: boolean; optional?: boolean }) {
  return textField({ max: PROFILE_LIMITS.phone, optional: options.optional }, (value) => {
    if (!phoneShape(value)) return 'phoneInvalid'
    if (options.international && typeof normalizePhone(value) !== 'string') return 'phoneInvalid'
    return null
  }).transform((value): string => {
    const text = value?.trim() ?? ''
    if (!options.international || text === '') return text
    const normalized = normalizePhone(text)
    return typeof normalized === 'string' ? normalized : text
  })
}

export const ProfileSchema = z.object({
  name: line(PROFILE_LIMITS.name),
  phone: phone({ international: true, optional: true })
    .transform((value) => value || undefined)
    .optional(),
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

const AddressFields = z.object({
  fullName: line(PROFILE_LIMITS.addressName),
  street: line(PROFILE_LIMITS.street),
  city: line(PROFILE_LIMITS.city),
  region: optionalLine(PROFILE_LIMITS.region),
  postalCode,
  country: z
    .string({ error: 'country' })
    .optional()
    .transform((value) => value?.trim() ?? '')
    .refine((value) => isCountryCode(value), { error: 'country' }),
  phone: phone({ international: false }),
  /** A ticked "make this my default address"; unticked changes nothing. */
  makeDefault: z.preprocess((value) => value === 'on' || value === true, z.boolean({ error: 'invalid' })),
})

/**
 * An address, checked for its country (core/customers/address-rules.ts: the postal code's shape,
 * a required region or postal code, a phone that exists) and stored as the post writes it: the
 * postal code in upper case, a listed region as its code, the phone in E.164. The country's
 * checks run whenever the country, and the field they are about, are readable, so every field's
 * message shows at once.
 */
export const AddressSchema = AddressFields.check((ctx) => {
  const value = ctx.value
  if (!isCountryCode(value.country)) return
  // A field that failed its own check already has its message.
  const failed = new Set(ctx.issues.map((issue) => String(issue.path?.[0])))
  const text = (field: unknown) => (typeof field === 'string' ? field : undefined)
  const result = checkAddressForCountry({
    country: value.country,
    region: text(value.region),
    postalCode: text(value.postalCode),
    phone: text(value.phone) ?? '',
  })
  if (result.ok) return
  for (const problem of result.problems) {
    if (failed.has(problem.field)) continue
    ctx.issues.push({ code: 'custom', path: [problem.field], message: problem.error, input: value })
  }
}).transform((value) => {
  const result = checkAddressForCountry({
    country: value.country,
    region: value.region,
    postalCode: value.postalCode,
    phone: value.phone,
  })
  if (!result.ok) return value
  return { ...value, region: result.region, postalCode: result.postalCode, phone: result.phone }
})

export type AddressInput = z.output<typeof AddressSchema>

/** Which address a button is about (make default, delete). */
export const AddressIdSchema = z.object({ id: z.uuid({ error: 'invalid' }) })
