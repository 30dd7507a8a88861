import { z } from 'zod'
import { parseWholeNumber, YEN_MARKS } from '#core/money/parse-yen.ts'

// The balance forms' schemas (docs/decisions/050), shared by the pages (Conform) and the
// services. Messages are i18n keys under `balance.errors` (the customer's in account.ts, the
// staff's in admin.ts).

export const BALANCE_LIMITS = {
  topUpMinJpy: 1_000,
  topUpMaxJpy: 1_000_000,
  /** An admin's adjustment, either way. */
  adjustMaxJpy: 1_000_000,
  /** A payment from the balance: at most any invoice's total (MAX_TOTAL_JPY is far above). */
  payMaxJpy: 100_000_000,
  reason: 500,
  reference: 100,
} as const

// biome-ignore lint/suspicious/noControlCharactersInRegex: a one-line text refuses control characters and line breaks
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f]/

const id = z.uuid({ error: 'invalid' })

/** Whole yen as typed ("¥12,345", "12.345", "12345 円"): never rounded; empty, text, decimals, negatives refused. */
function yen(min: number, max: number, errors: { required: string; range: string }) {
  return z.preprocess(
    (value) => {
      if (typeof value === 'number' || value === undefined) return value
      if (value === null) return undefined
      if (typeof value !== 'string') return Number.NaN
      const parsed = parseWholeNumber(value, YEN_MARKS)
      if (parsed.ok) return parsed.value
      return parsed.error === 'required' ? undefined : Number.NaN
    },
    z
      .number({ error: (issue) => (issue.input === undefined ? errors.required : 'amountWhole') })
      .int({ error: 'amountWhole' })
      .min(min, { error: errors.range })
      .max(max, { error: errors.range }),
  )
}

const oneLine = (max: number, required: string, tooLong: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .max(max, { error: tooLong, abort: true })
    .refine((value) => !CONTROL_OR_BREAK.test(value), { error: 'invalidCharacters' })

/** A customer pays an open invoice from their balance: all they can (no amount) or this much. */
export const PayFromBalanceSchema = z.object({
  invoiceId: id,
  amountJpy: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    yen(1, BALANCE_LIMITS.payMaxJpy, { required: 'amountRequired', range: 'amountWhole' }).optional(),
  ),
})
export type PayFromBalanceInput = z.output<typeof PayFromBalanceSchema>

/** An admin records a top-up the customer sent by bank transfer, with the bank's reference. */
export const RecordTopUpSchema = z.object({
  userId: z.string().min(1, { error: 'invalid' }).max(100, { error: 'invalid' }),
  amountJpy: yen(BALANCE_LIMITS.topUpMinJpy, BALANCE_LIMITS.topUpMaxJpy, {
    required: 'amountRequired',
    range: 'topUpRange',
  }),
  reference: oneLine(BALANCE_LIMITS.reference, 'referenceRequired', 'referenceTooLong'),
})
export type RecordTopUpInput = z.output<typeof RecordTopUpSchema>

/** An admin adds to or takes from a balance, always with a reason. */
export const AdjustBalanceSchema = z.object({
  userId: z.string().min(1, { error: 'invalid' }).max(100, { error: 'invalid' }),
  direction: z.enum(['credit', 'debit'], { error: 'directionRequired' }),
  amountJpy: yen(1, BALANCE_LIMITS.adjustMaxJpy, { required: 'amountRequired', range: 'adjustRange' }),
  reason: oneLine(BALANCE_LIMITS.reason, 'reasonRequired', 'reasonTooLong'),
})
export type AdjustBalanceInput = z.output<typeof AdjustBalanceSchema>

/** A refund due on a payment goes to the customer's balance instead of the original method. */
export const RefundToBalanceSchema = z.object({
  paymentId: id,
})
