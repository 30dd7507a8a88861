/**
 * Whole numbers as people type and paste them: yen prices from a Japanese shop ("¥2,500",
 * "2,500円", "￥２，５００"), the same figure as Spain, Chile or Argentina write it ("2.500"), or
 * as Mexico and the USA do ("2,500"), grams ("1.500 g"). Pure and isomorphic: the calculators run
 * it in the browser and the server reads the same query string with it.
 *
 * The rule for separators (docs/decisions/013-how-money-is-written.md):
 * - "," "." and spaces (any kind, no-break included), "_" and "'" may group thousands. A run of
 *   groups is grouping when every separator is the same character, the first group has 1 to 3
 *   digits and does not start with 0, and every later group has exactly three digits: "2.500" and
 *   "2,500" are both 2500, "1.234.567" and "1 234 567" are 1234567.
 * - Otherwise the last "," or "." is a decimal mark: "2.50", "1,5", "2500.50", "0.500",
 *   "2.500,50" and "2,500.50" have decimals. Yen and grams are whole, so such a number is refused
 *   as not whole (with zero decimals, "2.500,00", it is whole and accepted). What stands before a
 *   decimal mark must itself be a plain or well-grouped number, with a different separator.
 * - Anything else with separators ("1,2,3", "25 00", "2.500.50") cannot be read for sure and is
 *   refused as such, never guessed.
 */

export type WholeNumberError = 'required' | 'notNumber' | 'separators' | 'notWhole' | 'negative' | 'tooLarge'

export type WholeNumberResult = { ok: true; value: number } | { ok: false; error: WholeNumberError }

/** Words and signs that may stand before or after a yen amount (compared in lower case). */
export const YEN_MARKS = ['¥', '円', 'jpy', 'yen', 'yenes'] as const
/** Units that may follow a weight. */
export const GRAM_MARKS = ['g', 'gr', 'grs', 'gram', 'grams', 'gramo', 'gramos'] as const

const GROUP_SEPARATORS = new Set([',', '.', ' ', '_', "'"])
const DECIMAL_MARKS = new Set([',', '.'])
// More digits than this is not a price or a weight anyone means (and stays a safe integer).
const MAX_DIGITS = 15

/**
 * Reads a non-negative whole number. `marks` are the units accepted before or after it. An empty
 * text is `required`; the caller decides what zero and the limits mean.
 */
export function parseWholeNumber(
  input: string | number | null | undefined,
  marks: readonly string[],
): WholeNumberResult {
  if (input === null || input === undefined) return { ok: false, error: 'required' }
  // NFKC turns full-width digits, "￥", "，", "．" and the ideographic space into their plain forms.
  let text = String(input)
    .normalize('NFKC')
    .replace(/[\s\u00a0\u202f\u2007\u2009]+/g, ' ')
    .trim()
    .toLowerCase()
  if (text === '') return { ok: false, error: 'required' }
  text = stripMarks(text, marks)
  let negative = false
  const sign = /^[-+\u2212]/.exec(text)
  if (sign) {
    negative = sign[0] !== '+'
    text = stripMarks(text.slice(1).trim(), marks)
  }
  if (text === '' || !/^[\d.,\s_']+$/.test(text) || !/\d/.test(text)) return { ok: false, error: 'notNumber' }
  const read = readDigits(text)
  if (read === 'separators') return { ok: false, error: 'separators' }
  if (negative && (read.integer !== '0' || !read.zeroFraction)) return { ok: false, error: 'negative' }
  if (!read.zeroFraction) return { ok: false, error: 'notWhole' }
  const digits = read.integer.replace(/^0+(?=\d)/, '')
  if (digits.length > MAX_DIGITS) return { ok: false, error: 'tooLarge' }
  return { ok: true, value: Number(digits) }
}

/** A yen amount: `¥`, `￥`, `円`, `JPY` or `yen` may stand before or after it. */
export function parseYen(input: string | number | null | undefined): WholeNumberResult {
  return parseWholeNumber(input, YEN_MARKS)
}

/** A weight in grams: `g`, `gr`, `gramos`… may follow it. */
export function parseGrams(input: string | number | null | undefined): WholeNumberResult {
  return parseWholeNumber(input, GRAM_MARKS)
}

function stripMarks(text: string, marks: readonly string[]): string {
  let result = text
  // Longest first, so "yenes" is not read as "yen" + "es".
  const sorted = [...marks].sort((a, b) => b.length - a.length)
  for (const mark of sorted) {
    if (result.startsWith(mark)) {
      result = result.slice(mark.length).trim()
      break
    }
  }
  for (const mark of sorted) {
    if (result.endsWith(mark)) {
      result = result.slice(0, -mark.length).trim()
      break
    }
  }
  return result
}

type Digits = { integer: string; zeroFraction: boolean }

/** `text` holds only digits and separators. */
function readDigits(text: string): Digits | 'separators' {
  const grouped = readGrouped(text)
  if (grouped !== null) return { integer: grouped, zeroFraction: true }
  const markAt = Math.max(text.lastIndexOf(','), text.lastIndexOf('.'))
  if (markAt === -1 || !DECIMAL_MARKS.has(text.charAt(markAt))) return 'separators'
  const fraction = text.slice(markAt + 1)
  const whole = text.slice(0, markAt)
  if (!/^\d+$/.test(fraction)) return 'separators'
  let integer: string | null
  if (whole === '') integer = '0'
  else if (/^\d+$/.test(whole)) integer = whole
  else {
    // The groups before a decimal mark must use another character than the mark itself.
    integer = whole.includes(text.charAt(markAt)) ? null : readGrouped(whole)
  }
  if (integer === null) return 'separators'
  return { integer, zeroFraction: /^0+$/.test(fraction) }
}

/** Plain digits, or digits grouped by thousands with one separator; null otherwise. */
function readGrouped(text: string): string | null {
  if (/^\d+$/.test(text)) return text
  const separator = [...text].find((character) => !/\d/.test(character))
  if (separator === undefined || !GROUP_SEPARATORS.has(separator)) return null
  const groups = text.split(separator)
  const [first, ...rest] = groups
  if (first === undefined || !/^[1-9]\d{0,2}$/.test(first)) return null
  if (!rest.every((group) => /^\d{3}$/.test(group))) return null
  return groups.join('')
}
