import { z } from 'zod'
import { parseWholeNumber, YEN_MARKS } from '#core/money/parse-yen.ts'

/**
 * Field readers for the admin forms (settings, rate tables): what a person types, read into
 * numbers and clean text, or refused with a message key of `adminForm.errors` in the admin locale
 * files. Pure and isomorphic: Conform runs the same schemas in the browser and on the server.
 * Each reader takes `unknown` (a form gives strings, or nothing for an empty field).
 */

function fail<T>(ctx: z.RefinementCtx<T>, message: string, input: unknown): never {
  ctx.issues.push({ code: 'custom', message, input })
  return z.NEVER as never
}

/**
 * A field's reader: the value as text ('' for nothing: Conform sends an empty field as nothing),
 * or null for what no form field sends (several values, an object), refused as `invalid`.
 */
function reader<T>(read: (written: string, ctx: z.RefinementCtx<unknown>, value: unknown) => T) {
  return z.preprocess(
    (value) => value ?? '',
    z.unknown().transform((value, ctx): T => {
      if (typeof value === 'number' && Number.isFinite(value)) return read(String(value), ctx, value)
      if (typeof value !== 'string') return fail(ctx, 'invalid', value)
      return read(value, ctx, value)
    }),
  )
}

/**
 * A short list of whole numbers from `min` to `max`, as people type them ("7, 1", "7 1", "7;1"),
 * each once, largest first, at most `most`; an empty field is an empty list. Otherwise `key`.
 */
export function wholeNumberList({
  min,
  max,
  most,
  key,
}: {
  min: number
  max: number
  most: number
  key: string
}) {
  return reader((written, ctx, value): number[] => {
    const text = written.normalize('NFKC').trim()
    if (text === '') return []
    if (!/^\d{1,4}([\s,;]+\d{1,4})*$/.test(text)) return fail(ctx, key, value)
    const numbers = [...new Set(text.split(/[\s,;]+/).map(Number))].sort((a, b) => b - a)
    if (numbers.length > most || numbers.some((n) => n < min || n > max)) return fail(ctx, key, value)
    return numbers
  })
}

/**
 * Host names, one per line or separated by commas ("mercari.com, amazon.co.jp"): lower case,
 * without a scheme, a path or "www."; at most `most`, each a plain DNS name (never an address).
 */
export function hostNameList({ most, key }: { most: number; key: string }) {
  return reader((written, ctx, value): string[] => {
    const text = written.normalize('NFKC').trim().toLowerCase()
    if (text === '') return []
    const hosts = [
      ...new Set(
        text
          .split(/[\s,;]+/)
          .filter(Boolean)
          .map((host) => host.replace(/^www\./, '')),
      ),
    ]
    const name = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/
    if (hosts.length > most || hosts.some((host) => !name.test(host))) return fail(ctx, key, value)
    return hosts
  })
}

/**
 * A whole number (yen with `yen: true`: "¥1,200", "1.200 円"; ADR 013's separators), from `min`
 * to `max`; outside it, `rangeKey`.
 */
export function wholeNumber({
  min,
  max,
  rangeKey,
  yen = false,
  negativeKey = 'negative',
}: {
  min: number
  max: number
  rangeKey: string
  yen?: boolean
  negativeKey?: string
}) {
  return reader((written, ctx, value): number => {
    const parsed = parseWholeNumber(written, yen ? YEN_MARKS : [])
    if (!parsed.ok) {
      if (parsed.error === 'negative') return fail(ctx, negativeKey, value)
      if (parsed.error === 'tooLarge') return fail(ctx, rangeKey, value)
      return fail(ctx, parsed.error, value)
    }
    if (parsed.value < min || parsed.value > max) return fail(ctx, rangeKey, value)
    return parsed.value
  })
}

/**
 * A decimal number with at most `decimals` decimals, a point or a comma as the decimal mark
 * ("8.5", "8,5"; no thousands separators: these are small numbers), an optional `suffix` ("%").
 * Zero is `zeroKey` when given (a rate of zero), negative `negative`, above `max` `rangeKey`.
 */
export function decimalNumber({
  max,
  decimals,
  rangeKey,
  decimalsKey,
  zeroKey,
  suffix,
}: {
  max: number
  decimals: number
  rangeKey: string
  decimalsKey: string
  zeroKey?: string
  suffix?: string
}) {
  return reader((typed, ctx, value): number => {
    let written = typed.normalize('NFKC').trim()
    if (suffix && written.endsWith(suffix)) written = written.slice(0, -suffix.length).trim()
    if (written === '') return fail(ctx, 'required', value)
    const match = /^([+-]?)(\d+)(?:[.,](\d+))?$/.exec(written)
    if (!match) return fail(ctx, 'notNumber', value)
    if (match[1] === '-' && /[1-9]/.test(`${match[2]}${match[3] ?? ''}`)) return fail(ctx, 'negative', value)
    if ((match[3] ?? '').replace(/0+$/, '').length > decimals) return fail(ctx, decimalsKey, value)
    const number = Number(`${match[2]}.${match[3] ?? '0'}`)
    if (number === 0 && zeroKey) return fail(ctx, zeroKey, value)
    if (number > max) return fail(ctx, rangeKey, value)
    return number
  })
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, line breaks and tabs excepted
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

/**
 * Text, trimmed; one line unless `multiline` (line breaks kept, written as "\n"). Control and
 * bidirectional-override characters are refused: they hide or reorder what staff and customers
 * read. Empty is `required` unless `optional`; longer than `max` is `tooLong`.
 */
export function cleanText({
  max,
  multiline = false,
  optional = false,
}: {
  max: number
  multiline?: boolean
  optional?: boolean
}) {
  return reader((typed, ctx, value): string => {
    const written = typed.replace(/\r\n?/g, '\n').trim()
    if (written === '' && !optional) return fail(ctx, 'required', value)
    if (written.length > max) return fail(ctx, 'tooLong', value)
    if ((multiline ? CONTROL : CONTROL_OR_BREAK).test(written)) return fail(ctx, 'controlCharacters', value)
    return written
  })
}

/** A web address that must be https (a messaging link): no other scheme, at most 300 characters. */
export function httpsAddress() {
  return cleanText({ max: 300 }).transform((value, ctx): string => {
    try {
      const url = new URL(value)
      if (url.protocol === 'https:' && url.hostname.includes('.') && !url.username && !url.password)
        return url.href
    } catch {}
    return fail(ctx, 'httpsUrl', value)
  })
}

/** An e-mail address as customers will write to it. */
export function emailAddress() {
  return cleanText({ max: 254 }).pipe(z.email({ error: 'email' }))
}

/**
 * A group of fields: an all-empty group arrives as nothing (and anything but an object, sent by
 * hand, as if it had), and is read as empty fields.
 */
export function group<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.preprocess((value) => (isRecord(value) ? value : {}), z.object(shape))
}

/** A plain object (what a group of fields arrives as); anything else is read as an empty group. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
