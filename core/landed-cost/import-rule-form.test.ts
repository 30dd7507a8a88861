import { expect, test } from 'vitest'
import enAdmin from '#app/locales/en/admin.ts'
import esAdmin from '#app/locales/es/admin.ts'
import { SEED_IMPORT_RULES } from '#core/seed/data/import-rules.ts'
import {
  type ImportRuleFormFields,
  ImportRuleFormSchema,
  importRuleFormFields,
  MethodFormSchema,
  NewMethodFormSchema,
} from './import-rule-form.ts'
import { RULE_LIMITS } from './import-rules.ts'

// The import rule forms as a browser sends them (strings, nested objects as Conform builds them):
// what people type is read, what they must fix is said on the field, what no page sends is refused.

const mexico = SEED_IMPORT_RULES.find((seed) => seed.country === 'MX')?.rule
if (!mexico) throw new Error('no seeded rule for Mexico')

const form = (patch: Partial<ImportRuleFormFields> = {}): ImportRuleFormFields => ({
  ...importRuleFormFields(mexico, '2027-01-01'),
  ...patch,
})

/** The errors of a failed parse: path → messages. */
function errorsOf(input: unknown, schema: { safeParse(input: unknown): unknown } = ImportRuleFormSchema) {
  const result = schema.safeParse(input) as {
    success: boolean
    error?: { issues: { path: PropertyKey[]; message: string }[] }
  }
  if (result.success) return null
  const errors: Record<string, string[]> = {}
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.map((segment) =>
      typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`,
    )
    const name = path.join('').replace(/^\./, '').replace(/\.\[/g, '[')
    errors[name] = [...(errors[name] ?? []), issue.message]
  }
  return errors
}

test('the seeded rule, as the form shows it, reads back as the same rule', () => {
  for (const seed of SEED_IMPORT_RULES) {
    const parsed = ImportRuleFormSchema.parse(importRuleFormFields(seed.rule, seed.effectiveFrom))
    expect(parsed).toEqual({ effectiveFrom: seed.effectiveFrom, rule: seed.rule })
  }
})

test('percentages and fees are read as people type them', () => {
  const parsed = ImportRuleFormSchema.parse(
    form({
      bands: [
        { upTo: '200', dutyPercent: '0', vatPercent: '19 %', perCategory: '2,99' },
        { upTo: '2.500', dutyPercent: '33,5', vatPercent: '0', perCategory: '', flat: 'on' },
        { upTo: '', dutyPercent: '0', vatPercent: '0', perCategory: '', formal: 'on' },
        { upTo: '', dutyPercent: '', vatPercent: '', perCategory: '' },
      ],
      handlingFee: '3',
    }),
  )
  expect(parsed.rule.bands).toEqual([
    {
      upTo: 200,
      dutyBp: 0,
      vatBp: 1900,
      itemTariff: false,
      flat: false,
      perCategoryMinor: 299,
      formal: false,
    },
    { upTo: 2500, dutyBp: 3350, vatBp: 0, itemTariff: false, flat: true, perCategoryMinor: 0, formal: false },
    { upTo: null, dutyBp: 0, vatBp: 0, itemTariff: false, flat: false, perCategoryMinor: 0, formal: true },
  ])
  expect(parsed.rule.handlingFeeMinor).toBe(300)
  expect(ImportRuleFormSchema.parse(form({ handlingFee: '33.5' })).rule.handlingFeeMinor).toBe(3350)
})

test('bands typed out of order are put in order; removed and empty rows are dropped', () => {
  const parsed = ImportRuleFormSchema.parse(
    form({
      bands: [
        { upTo: '', dutyPercent: '6', vatPercent: '19', perCategory: '', itemTariff: 'on' },
        { upTo: '500', dutyPercent: '0', vatPercent: '19', perCategory: '' },
        { upTo: '100', dutyPercent: '1', vatPercent: '1', perCategory: '', remove: 'on' },
      ],
    }),
  )
  expect(parsed.rule.bands.map((band) => band.upTo)).toEqual([500, null])
})

test('bad input is refused on its field, with a message in both languages', () => {
  const cases: [Partial<ImportRuleFormFields>, Record<string, string[]>][] = [
    [{ effectiveFrom: '' }, { effectiveFrom: ['required'] }],
    [{ effectiveFrom: '2027-02-30' }, { effectiveFrom: ['importRules.errors.date'] }],
    [{ effectiveFrom: '27/01/2027' }, { effectiveFrom: ['importRules.errors.date'] }],
    [{ currency: 'JPY' }, { currency: ['invalid'] }],
    [{ taxName: '' }, { taxName: ['required'] }],
    [{ taxName: 'x'.repeat(RULE_LIMITS.taxName + 1) }, { taxName: ['tooLong'] }],
    [{ note: { es: 'a'.repeat(1001), en: '' } }, { 'note.es': ['tooLong'] }],
    [{ note: { es: 'Hola\u202eevil', en: '' } }, { 'note.es': ['controlCharacters'] }],
    [{ source: '' }, { source: ['required'] }],
    [{ source: 'javascript:alert(1)' }, { source: ['importRules.errors.sourceLines'] }],
    [
      { source: 'https://ok.example/a\nhttp://plain.example' },
      { source: ['importRules.errors.sourceLines'] },
    ],
    [{ handlingFee: '-3' }, { handlingFee: ['negative'] }],
    [{ handlingFee: '2,999' }, { handlingFee: ['importRules.errors.feeDecimals'] }],
    [{ handlingFee: 'tres' }, { handlingFee: ['notNumber'] }],
    [{ shipmentsPerYear: '0' }, { shipmentsPerYear: ['importRules.errors.countRange'] }],
    [{ valuePerYear: '1,5' }, { valuePerYear: ['notWhole'] }],
    [
      { bands: [{ upTo: '200', dutyPercent: '101', vatPercent: '19,555', perCategory: '' }] },
      {
        'bands[0].dutyPercent': ['importRules.errors.percentRange'],
        'bands[0].vatPercent': ['importRules.errors.percentDecimals'],
      },
    ],
    [
      { bands: [{ upTo: 'abc', dutyPercent: '', vatPercent: '0', perCategory: '' }] },
      { 'bands[0].upTo': ['notNumber'], 'bands[0].dutyPercent': ['required'] },
    ],
    // A last band with an upper end that is not a formal entry leaves larger parcels without a rule.
    [
      { bands: [{ upTo: '200', dutyPercent: '0', vatPercent: '19', perCategory: '' }] },
      { bands: ['importRules.errors.bandsOpenEnd'] },
    ],
    [{ bands: [] }, { bands: ['importRules.errors.bandsRequired'] }],
    [
      {
        bands: [
          { upTo: '200', dutyPercent: '0', vatPercent: '0', perCategory: '' },
          { upTo: '200', dutyPercent: '0', vatPercent: '19', perCategory: '', formal: 'on' },
        ],
      },
      { 'bands[1].upTo': ['importRules.errors.bandDuplicate'] },
    ],
    [
      {
        bands: [
          { upTo: '', dutyPercent: '0', vatPercent: '0', perCategory: '' },
          { upTo: '', dutyPercent: '0', vatPercent: '19', perCategory: '' },
        ],
      },
      { 'bands[1].upTo': ['importRules.errors.bandsOneOpenEnd'] },
    ],
    [
      {
        bands: Array.from({ length: RULE_LIMITS.bands + 1 }, (_, index) => ({
          upTo: String((index + 1) * 100),
          dutyPercent: '0',
          vatPercent: '0',
          perCategory: '',
          formal: 'on',
        })),
      },
      { bands: ['importRules.errors.tooManyBands'] },
    ],
  ]
  for (const [patch, errors] of cases) {
    expect(errorsOf(form(patch)), JSON.stringify(patch).slice(0, 80)).toEqual(errors)
    for (const key of Object.values(errors).flat()) {
      for (const locale of [enAdmin, esAdmin]) expect(message(locale, key), key).toEqual(expect.any(String))
    }
  }
})

test('what no page sends is refused: wrong types, hostile names, far too many rows', () => {
  expect(errorsOf({})).toMatchObject({ effectiveFrom: ['required'], taxName: ['required'] })
  expect(errorsOf(form({ currency: ['USD', 'EUR'] as unknown as string }))).toEqual({ currency: ['invalid'] })
  expect(errorsOf(form({ taxName: { x: 1 } as unknown as string }))).toEqual({ taxName: ['invalid'] })
  expect(
    errorsOf(
      form({
        bands: [{ upTo: '', dutyPercent: '0', vatPercent: '0', perCategory: '', formal: 'yes please' }],
      }),
    ),
  ).toEqual({ 'bands[0].formal': ['invalid'] })
  expect(
    errorsOf(
      form({
        bands: Array.from({ length: 50 }, () => ({
          upTo: '',
          dutyPercent: '',
          vatPercent: '',
          perCategory: '',
        })),
      }),
    ),
  ).toEqual({ bands: ['importRules.errors.tooManyBands'] })
  expect(errorsOf('<script>')).not.toBeNull()
})

test('a method: available or not, why in both languages when not, a real day', () => {
  expect(
    MethodFormSchema.parse({
      method: 'economic',
      available: 'no',
      note: { es: 'Japan Post no acepta', en: 'Japan Post does not accept' },
      source: 'https://www.post.japanpost.jp/int/information/2025/0822_01_en.html',
      effectiveFrom: '2025-08-27',
    }),
  ).toMatchObject({ method: 'economic', available: false, effectiveFrom: '2025-08-27' })
  expect(
    MethodFormSchema.parse({ method: 'express', available: 'yes', effectiveFrom: '2026-01-01' }),
  ).toMatchObject({ available: true, note: { es: '', en: '' }, source: '' })
  expect(errorsOf({ method: 'sal', available: 'no', effectiveFrom: 'x' }, MethodFormSchema)).toEqual({
    method: ['invalid'],
    effectiveFrom: ['importRules.errors.date'],
  })
  expect(
    errorsOf(
      { method: 'economic', available: 'no', note: { es: 'Sí' }, effectiveFrom: '2026-01-01' },
      MethodFormSchema,
    ),
  ).toEqual({ 'note.en': ['importRules.errors.noteRequired'] })
  expect(
    errorsOf(
      { country: 'Mexico', method: 'economic', available: 'yes', effectiveFrom: '2026-01-01' },
      NewMethodFormSchema,
    ),
  ).toEqual({ country: ['importRules.errors.country'] })
  expect(
    NewMethodFormSchema.parse({
      country: 've',
      method: 'economic',
      available: 'yes',
      effectiveFrom: '2026-01-01',
    }),
  ).toMatchObject({ country: 'VE', available: true })
})

/** A message key ("required", or a whole key "importRules.errors.date") in a locale file. */
function message(locale: typeof enAdmin, key: string): unknown {
  if (!key.includes('.')) return (locale.adminForm.errors as Record<string, string>)[key]
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locale)
}
