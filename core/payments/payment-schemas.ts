import { z } from 'zod'
import { parseWholeNumber, YEN_MARKS } from '#core/money/parse-yen.ts'
import { MAX_TOTAL_JPY } from '#core/pricing/pricing.ts'
import { confirmField } from '#core/shared/confirmation.ts'
import { MAX_PHOTO_BYTES, PHOTO_INPUT_ACCEPT } from '#core/uploads/photo-rules.ts'
import { LOCAL_COUNTRIES, LOCAL_METHOD_IDS, type LocalCountry } from './local-methods.ts'

// The payment forms' schemas, shared by the pages (Conform) and the services. Messages are i18n
// keys under `payments.errors` (the customer's in app/locales/*/account.ts, staff's in admin.ts).

export const PAYMENT_LIMITS = { reference: 100, note: 2000, amountJpy: MAX_TOTAL_JPY } as const

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: a one-line reference refuses line breaks too
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f]/

const id = z.uuid({ error: 'invalid' })
const version = z.coerce.number({ error: 'invalid' }).int({ error: 'invalid' }).min(0, { error: 'invalid' })

/** A customer starts paying an invoice with one of the configured providers. */
export const StartCheckoutSchema = z.object({
  invoiceId: id,
  provider: z.enum(['paypal', 'stripe', 'dlocal'], { error: 'providerUnknown' }),
  // dLocal only (docs/decisions/051): the customer's country and the method they chose there.
  country: z.enum(LOCAL_COUNTRIES as [LocalCountry, ...LocalCountry[]]).optional(),
  method: z.enum(LOCAL_METHOD_IDS).optional(),
})
export type StartCheckoutInput = z.output<typeof StartCheckoutSchema>

/** A one-line reference: a bank transfer's, a refund's. */
const reference = z
  .string({ error: 'referenceRequired' })
  .trim()
  .min(1, { error: 'referenceRequired', abort: true })
  .max(PAYMENT_LIMITS.reference, { error: 'referenceTooLong', abort: true })
  .refine((value) => !CONTROL_OR_BREAK.test(value), { error: 'invalidCharacters' })

/**
 * Yen as staff type it ("¥12,345", "12.345", "12345 円"): a whole number, never rounded; the
 * service then requires it to be exactly the invoice's total.
 */
const amountJpy = z.preprocess(
  (value) => {
    if (typeof value === 'number' || value === undefined) return value
    if (value === null) return undefined
    if (typeof value !== 'string') return Number.NaN
    const parsed = parseWholeNumber(value, YEN_MARKS)
    if (parsed.ok) return parsed.value
    return parsed.error === 'required' ? undefined : Number.NaN
  },
  z
    .number({ error: (issue) => (issue.input === undefined ? 'amountRequired' : 'amountWhole') })
    .int({ error: 'amountWhole' })
    .min(1, { error: 'amountWhole' })
    .max(PAYMENT_LIMITS.amountJpy, { error: 'amountWhole' }),
)

const optionalNote = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z
    .string({ error: 'invalidCharacters' })
    .trim()
    .max(PAYMENT_LIMITS.note, { error: 'noteTooLong', abort: true })
    .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'invalidCharacters' })
    .optional(),
)

/** An admin records a bank transfer that arrived: the invoice as the page showed it (version). */
export const RecordManualPaymentSchema = z.object({
  invoiceId: id,
  version,
  amountJpy,
  reference,
  note: optionalNote,
})
export type RecordManualPaymentInput = z.output<typeof RecordManualPaymentSchema>

/** An admin says the refund due on a payment was made (at the provider or by the bank). */
export const MarkRefundDoneSchema = z.object({
  paymentId: id,
  version,
  reference,
})
export type MarkRefundDoneInput = z.output<typeof MarkRefundDoneSchema>

/**
 * An admin gives back what is due on a payment through its provider (PayPal, Stripe): money
 * leaves at once, so the admin confirms it with the amount in front of them (docs/decisions/037).
 */
export const RefundThroughProviderSchema = z.object({ paymentId: id, version, confirm: confirmField })

/**
 * An admin resolves a held payment: `accept` it as the quote's payment, or `refund` it whole;
 * the payment as the page showed it (version), and why (a note kept in its history).
 */
export const ResolveHeldPaymentSchema = z.object({
  paymentId: id,
  version,
  resolution: z.enum(['accept', 'refund'], { error: 'resolutionUnknown' }),
  note: optionalNote,
})
export type ResolveHeldPaymentInput = z.output<typeof ResolveHeldPaymentSchema>

/**
 * "I have paid" (docs/decisions/036): the customer's bank transfer, told to us with an optional
 * proof (a photo or a PDF of the bank's receipt, up to 5 MiB: the file is checked by the service)
 * and an optional note to help find it.
 */
export const TRANSFER_LIMITS = { note: 500, proofBytes: MAX_PHOTO_BYTES } as const
export const TRANSFER_PROOF_MAX_BYTES = TRANSFER_LIMITS.proofBytes
/** The form's whole body: the proof and a little more (server/app.ts allows it on the pages that post it). */
export const TRANSFER_FORM_BODY_BYTES = TRANSFER_PROOF_MAX_BYTES + 64 * 1024
/** For `<input type="file" accept=…>`: the photos we take, and PDF. */
export const TRANSFER_PROOF_ACCEPT = `${PHOTO_INPUT_ACCEPT},application/pdf`

export const ReportTransferSchema = z.object({
  invoiceId: id,
  note: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z
      .string({ error: 'invalidCharacters' })
      .trim()
      .max(TRANSFER_LIMITS.note, { error: 'transferNoteTooLong', abort: true })
      .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'invalidCharacters' })
      .optional(),
  ),
})
export type ReportTransferInput = z.output<typeof ReportTransferSchema>

/** An admin says the reported transfer has not arrived, with a reason the customer reads. */
export const DismissTransferSchema = z.object({
  noticeId: id,
  version,
  reason: z
    .string({ error: 'reasonRequired' })
    .trim()
    .min(1, { error: 'reasonRequired', abort: true })
    .max(1000, { error: 'reasonTooLong', abort: true })
    .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'invalidCharacters' }),
})
export type DismissTransferInput = z.output<typeof DismissTransferSchema>
