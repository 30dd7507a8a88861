import { expect, test } from 'vitest'
import {
  buildDeclarationLines,
  CN22_LIMIT_JPY,
  customsFormFor,
  type DeclarableItem,
  declarationTotals,
  descriptionProblem,
  formatHsCode,
  parseHsCode,
  ReviewDeclarationSchema,
  StaffDeclarationSchema,
} from './customs-declaration-rules.ts'

const ITEM_A = '00000000-0000-4000-8000-00000000000a'
const ITEM_B = '00000000-0000-4000-8000-00000000000b'
const SHIPMENT = '00000000-0000-4000-8000-000000000001'

const items: DeclarableItem[] = [
  {
    itemId: ITEM_A,
    title: 'Anime figure, PVC',
    paid: { quantity: 2, amountJpy: 6000 },
    quantity: 2,
    unitPriceJpy: 3000,
    weightGrams: 400,
  },
  {
    itemId: ITEM_B,
    title: 'フィギュア',
    paid: null,
    quantity: 1,
    unitPriceJpy: 5000,
    weightGrams: null,
  },
]

test('lines take the paid value and quantity, the warehouse weight, origin Japan, and a title customs would accept', () => {
  const lines = buildDeclarationLines(items)
  expect(lines).toEqual([
    {
      itemId: ITEM_A,
      position: 1,
      description: 'Anime figure, PVC',
      quantity: 2,
      valueJpy: 6000,
      netWeightG: 400,
      hsCode: null,
      originCountry: 'JP',
    },
    // No paid line found: the quote's price × quantity; a Japanese title is left to be written.
    {
      itemId: ITEM_B,
      position: 2,
      description: null,
      quantity: 1,
      valueJpy: 5000,
      netWeightG: null,
      hsCode: null,
      originCountry: 'JP',
    },
  ])
})

test('what was written before is kept when the lines are rebuilt; values always come from what was paid', () => {
  const lines = buildDeclarationLines(items, [
    { itemId: ITEM_B, description: 'Plush toy, polyester', hsCode: '950300' },
    { itemId: 'gone', description: 'Old line', hsCode: null },
  ])
  expect(lines.map((line) => [line.description, line.hsCode, line.valueJpy])).toEqual([
    ['Anime figure, PVC', null, 6000],
    ['Plush toy, polyester', '950300', 5000],
  ])
})

test('CN22 strictly below 300 SDR (at ¥200), CN23 from there; an export declaration above ¥200,000', () => {
  expect(CN22_LIMIT_JPY).toBe(60_000)
  expect(customsFormFor(59_999)).toBe('CN22')
  expect(customsFormFor(60_000)).toBe('CN23')
  const line = buildDeclarationLines(items)[0]
  if (!line) throw new Error('no line')
  expect(declarationTotals([{ ...line, valueJpy: 200_000 }])).toMatchObject({
    form: 'CN23',
    exportDeclaration: false,
  })
  expect(declarationTotals([{ ...line, valueJpy: 200_001 }]).exportDeclaration).toBe(true)
  expect(declarationTotals(buildDeclarationLines(items))).toEqual({
    quantity: 3,
    valueJpy: 11_000,
    netWeightG: null,
    form: 'CN22',
    exportDeclaration: false,
    missingDescriptions: 1,
  })
})

test('descriptions: specific, in Latin letters, not too long', () => {
  expect(descriptionProblem('Anime figure, PVC (20 cm)')).toBeNull()
  expect(descriptionProblem('T-shirt 100% cotton')).toBeNull()
  expect(descriptionProblem('Muñeca de tela')).toBeNull()
  expect(descriptionProblem('')).toBe('descriptionRequired')
  expect(descriptionProblem('x'.repeat(121))).toBe('descriptionTooLong')
  expect(descriptionProblem('フィギュア')).toBe('descriptionLetters')
  expect(descriptionProblem('<script>alert(1)</script>')).toBe('descriptionLetters')
  expect(descriptionProblem('Figure\u0000')).toBe('descriptionLetters')
  expect(descriptionProblem('Gift')).toBe('descriptionVague')
  expect(descriptionProblem('daily  necessities.')).toBe('descriptionVague')
  expect(descriptionProblem('Daily necessities')).toBe('descriptionVague')
  expect(descriptionProblem('12345')).toBe('descriptionVague')
})

test('HS codes as people write them: 6 to 10 digits, dots between groups', () => {
  expect(parseHsCode('9503.00')).toBe('950300')
  expect(parseHsCode(' 9503.00.0090 ')).toBe('9503000090')
  expect(parseHsCode('950300')).toBe('950300')
  expect(parseHsCode('')).toBeNull()
  expect(parseHsCode('9503')).toBeUndefined()
  expect(parseHsCode('95030000901')).toBeUndefined()
  expect(parseHsCode('9503..00')).toBeUndefined()
  expect(parseHsCode('.950300')).toBeUndefined()
  expect(parseHsCode('9503-00')).toBeUndefined()
  expect(formatHsCode('950300')).toBe('9503.00')
  expect(formatHsCode('9503000090')).toBe('9503.00.0090')
})

test('the customer’s form: every field problem at once, on its line; nothing for values', () => {
  const parsed = ReviewDeclarationSchema.safeParse({
    id: SHIPMENT,
    version: '',
    lines: [
      { itemId: ITEM_A, description: '  Anime   figure ' },
      { itemId: ITEM_B, description: 'Gift' },
    ],
    confirm: true,
  })
  expect(parsed.success).toBe(false)
  expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['lines.1.description', 'descriptionVague'],
  ])
  const ok = ReviewDeclarationSchema.parse({
    id: SHIPMENT,
    version: '3',
    lines: [{ itemId: ITEM_A, description: '  Anime   figure ', valueJpy: 1 }],
  })
  expect(ok).toEqual({
    id: SHIPMENT,
    version: 3,
    lines: [{ itemId: ITEM_A, description: 'Anime figure' }],
    confirm: false,
  })
  // Wrong types, a repeated item, no lines: refused.
  for (const input of [
    { id: SHIPMENT, version: null, lines: [{ itemId: ITEM_A, description: 42 }] },
    { id: SHIPMENT, version: null, lines: 'x' },
    { id: SHIPMENT, version: null, lines: [] },
    { id: SHIPMENT, version: '-1', lines: [{ itemId: ITEM_A, description: 'Anime figure' }] },
    {
      id: SHIPMENT,
      version: null,
      lines: [
        { itemId: ITEM_A, description: 'Anime figure' },
        { itemId: ITEM_A, description: 'Anime figure' },
      ],
    },
    { id: 'nope', version: null, lines: [{ itemId: ITEM_A, description: 'Anime figure' }] },
  ]) {
    expect(ReviewDeclarationSchema.safeParse(input).success).toBe(false)
  }
})

test('staff’s form: a blank description stays for the customer, HS codes are checked and stored as digits', () => {
  expect(
    StaffDeclarationSchema.parse({
      id: SHIPMENT,
      version: '0',
      lines: [
        { itemId: ITEM_A, description: '', hsCode: '9503.00' },
        { itemId: ITEM_B, description: 'Plush toy', hsCode: '' },
      ],
    }).lines,
  ).toEqual([
    { itemId: ITEM_A, description: null, hsCode: '950300' },
    { itemId: ITEM_B, description: 'Plush toy', hsCode: null },
  ])
  const refused = StaffDeclarationSchema.safeParse({
    id: SHIPMENT,
    version: '0',
    lines: [{ itemId: ITEM_A, description: '', hsCode: '12' }],
  })
  expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['lines.0.hsCode', 'hsCodeInvalid'],
  ])
})
