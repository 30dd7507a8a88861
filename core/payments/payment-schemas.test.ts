import { expect, test } from 'vitest'
import { MarkRefundDoneSchema, RecordManualPaymentSchema, StartCheckoutSchema } from './payment-schemas.ts'

const INVOICE = 'b7d6c1f3-0000-4000-8000-000000000001'

function errors(result: {
  success: boolean
  error?: { issues: { path: PropertyKey[]; message: string }[] }
}) {
  if (result.success) return null
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  )
}

test('a bank transfer: yen as staff type them, never rounded; a one-line reference; an optional note', () => {
  const base = { invoiceId: INVOICE, version: '3', reference: '  MUFG 1124 ANA  ' }
  for (const [typed, yen] of [
    ['7400', 7400],
    ['7,400', 7400],
    ['7.400', 7400],
    ['¥7,400', 7400],
    ['7 400 円', 7400],
    ['￥７，４００', 7400],
    ['JPY 1,234,567', 1234567],
  ] as const) {
    const parsed = RecordManualPaymentSchema.safeParse({ ...base, amountJpy: typed })
    expect(parsed.success && parsed.data).toEqual({
      invoiceId: INVOICE,
      version: 3,
      amountJpy: yen,
      reference: 'MUFG 1124 ANA',
      note: undefined,
    })
  }
  const cases: [Record<string, unknown>, Record<string, string>][] = [
    [{ amountJpy: '' }, { amountJpy: 'amountRequired' }],
    [{ amountJpy: '   ' }, { amountJpy: 'amountRequired' }],
    [{ amountJpy: undefined }, { amountJpy: 'amountRequired' }],
    [{ amountJpy: '7400.50' }, { amountJpy: 'amountWhole' }],
    [{ amountJpy: '7,40' }, { amountJpy: 'amountWhole' }],
    [{ amountJpy: '-1' }, { amountJpy: 'amountWhole' }],
    [{ amountJpy: '0' }, { amountJpy: 'amountWhole' }],
    [{ amountJpy: '1e5' }, { amountJpy: 'amountWhole' }],
    [{ amountJpy: '99999999999' }, { amountJpy: 'amountWhole' }],
    [{ amountJpy: ['7400'] }, { amountJpy: 'amountWhole' }],
    [{ reference: '' }, { reference: 'referenceRequired' }],
    [{ reference: 'a'.repeat(101) }, { reference: 'referenceTooLong' }],
    [{ reference: 'tab\there' }, { reference: 'invalidCharacters' }],
    [{ reference: 'nul\u0000' }, { reference: 'invalidCharacters' }],
    [{ note: 'x'.repeat(2001) }, { note: 'noteTooLong' }],
    [{ invoiceId: 'PR-000001' }, { invoiceId: 'invalid' }],
    [{ version: '-1' }, { version: 'invalid' }],
    [{ version: '1.5' }, { version: 'invalid' }],
  ]
  for (const [change, expected] of cases) {
    expect(errors(RecordManualPaymentSchema.safeParse({ ...base, amountJpy: '7400', ...change }))).toEqual(
      expected,
    )
  }
  expect(
    RecordManualPaymentSchema.safeParse({ ...base, amountJpy: '7400', reference: 'x'.repeat(100) }).success,
  ).toBe(true)
  const withNote = RecordManualPaymentSchema.safeParse({
    ...base,
    amountJpy: '7400',
    note: '  line 1\nline 2  ',
  })
  expect(withNote.success && withNote.data.note).toBe('line 1\nline 2')
})

test('a checkout names an invoice and one of the two providers; anything else is refused', () => {
  expect(StartCheckoutSchema.safeParse({ invoiceId: INVOICE, provider: 'stripe' }).success).toBe(true)
  expect(StartCheckoutSchema.safeParse({ invoiceId: INVOICE, provider: 'paypal' }).success).toBe(true)
  for (const provider of ['manual', 'PayPal', '', 'stripe ', null]) {
    expect(errors(StartCheckoutSchema.safeParse({ invoiceId: INVOICE, provider }))).toEqual({
      provider: 'providerUnknown',
    })
  }
  expect(errors(StartCheckoutSchema.safeParse({ invoiceId: '1', provider: 'stripe' }))).toEqual({
    invoiceId: 'invalid',
  })
})

test('a refund done: the payment, its version and a reference', () => {
  const good = { paymentId: INVOICE, version: '0', reference: 're_123' }
  expect(MarkRefundDoneSchema.safeParse(good).success).toBe(true)
  expect(errors(MarkRefundDoneSchema.safeParse({ ...good, reference: ' ' }))).toEqual({
    reference: 'referenceRequired',
  })
  expect(errors(MarkRefundDoneSchema.safeParse({ ...good, paymentId: 'x' }))).toEqual({
    paymentId: 'invalid',
  })
})
