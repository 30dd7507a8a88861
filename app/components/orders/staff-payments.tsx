import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { z } from 'zod'
import { ConfirmSubmit } from '#app/components/confirm-submit.tsx'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { type FieldControlProps, FormField, inputClass } from '#app/components/form-field.tsx'
import { parseSubmission } from '#app/lib/form-submission.ts'
import type { PaymentStatus } from '#core/payments/payment-machine.ts'
import {
  DismissTransferSchema,
  MarkRefundDoneSchema,
  PAYMENT_LIMITS,
  RecordManualPaymentSchema,
  ResolveHeldPaymentSchema,
} from '#core/payments/payment-schemas.ts'
import type { PaymentMethod } from '#core/payments/payment-views.ts'

/**
 * The payments part of the staff request page (docs/decisions/021, "Payments"): every payment
 * of the request, newest first, a held or duplicate one set apart with what to do, a refund due
 * with "mark refund done" (admins); and "record a bank transfer" while the quote is open
 * (admins only: moderators see the list, never the forms, and the server refuses them anyway).
 * A bank transfer the customer says they made ("I have paid", docs/decisions/036) shows above
 * that form with their note and receipt; an admin records it there, or says it has not arrived.
 */

export type StaffTransferData = {
  id: string
  version: number
  invoiceNumber: string
  status: 'pending' | 'confirmed' | 'dismissed'
  note: string | null
  proof: { href: string; pdf: boolean } | null
  reportedLabel: string
  resolvedLabel: string | null
  dismissReason: string | null
}

export type StaffPaymentRowData = {
  id: string
  version: number
  invoiceNumber: string
  provider: PaymentMethod
  status: PaymentStatus
  askedLabel: string
  reportedLabel: string | null
  currency: string | null
  reference: string | null
  note: string | null
  recordedBy: string | null
  dateLabel: string
  refundDueLabel: string | null
  refundDoneLabel: string | null
  refundOutstanding: boolean
  /** What is still due, written out. */
  outstandingLabel: string
  /** The refund can go back through the provider's API (PayPal, Stripe, configured). */
  viaProvider: boolean
}

export type StaffPaymentsData = {
  invoice: {
    id: string
    number: string
    status: string
    version: number
    totalLabel: string
    /** A shipment's shipping receipt (not a purchase quote): the texts name it so. */
    receipt: boolean
  } | null
  rows: StaffPaymentRowData[]
  canRecord: boolean
  canRefund: boolean
  /** Bank transfers the customer reported, newest first. */
  transfers: StaffTransferData[]
  canDismissTransfer: boolean
}

/** These forms' intents: record a bank transfer, refund done, refund through the provider, resolve a held payment, dismiss a transfer. */
export const STAFF_PAYMENT_INTENTS = [
  'record_payment',
  'refund_done',
  'refund_provider',
  'resolve_held',
  'dismiss_transfer',
  'refund_balance',
] as const
export type StaffPaymentIntent = (typeof STAFF_PAYMENT_INTENTS)[number]

export function isStaffPaymentIntent(intent: unknown): intent is StaffPaymentIntent {
  return (STAFF_PAYMENT_INTENTS as readonly unknown[]).includes(intent)
}

/** What the page's action answered for one of these forms. */
export type StaffPaymentsAnswer = {
  intent: StaffPaymentIntent
  paymentId: string | null
  result: SubmissionResult<string[]>
} | null

/** A page's action answer if it answers one of these forms (for `StaffPayments`), else null. */
export function staffPaymentsAnswer<Answer extends { intent: unknown }>(
  answer: Answer | null | undefined,
): Extract<Answer, { intent: StaffPaymentIntent }> | null {
  return answer && isStaffPaymentIntent(answer.intent)
    ? (answer as Extract<Answer, { intent: StaffPaymentIntent }>)
    : null
}

/** The options of a form of this part checked against its schema as it is filled in (each field on leaving it). */
function checkedOnBlur<Schema extends z.ZodType>(
  id: string,
  lastResult: SubmissionResult<string[]> | undefined,
  schema: Schema,
) {
  return {
    id,
    lastResult,
    shouldValidate: 'onBlur' as const,
    onValidate: ({ formData }: { formData: FormData }) => parseSubmission(formData, { schema }),
  }
}

/** A payment's reference (the bank's, or the refund's), for a `FormField`: one line, required. */
function referenceInput<Schema, FormShape extends Record<string, unknown>>(
  field: FieldMetadata<Schema, FormShape>,
) {
  return (control: FieldControlProps) => (
    <input
      {...getInputProps(field, { type: 'text', ariaAttributes: false })}
      {...control}
      required
      maxLength={PAYMENT_LIMITS.reference}
      autoComplete="off"
      className={inputClass}
    />
  )
}

/** A payment's internal note, for a `FormField`. */
function noteTextarea<Schema, FormShape extends Record<string, unknown>>(
  field: FieldMetadata<Schema, FormShape>,
) {
  return (control: FieldControlProps) => (
    <textarea
      {...getTextareaProps(field, { ariaAttributes: false })}
      {...control}
      rows={2}
      maxLength={PAYMENT_LIMITS.note}
      className={`${inputClass} py-2`}
    />
  )
}

const TONE: Record<PaymentStatus, string> = {
  pending: 'bg-sky-100 text-sky-900',
  succeeded: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-slate-200 text-slate-900',
  held: 'bg-amber-100 text-amber-950',
  duplicate: 'bg-red-100 text-red-900',
  refunded: 'bg-slate-200 text-slate-900',
}

export function StaffPayments({
  payments,
  answer,
}: {
  payments: StaffPaymentsData
  answer: StaffPaymentsAnswer
}) {
  const { t } = useTranslation()
  const { invoice } = payments
  if (!invoice) return null
  return (
    <section aria-labelledby="payments-heading" className="space-y-4">
      <h2 id="payments-heading" className="text-xl font-semibold text-slate-900">
        {t('payments.heading')}
      </h2>
      <p className="text-slate-800">
        {t('payments.invoice', { number: invoice.number, amount: invoice.totalLabel })} (
        {t(`payments.invoiceStatus.${invoice.status as 'open'}`)})
      </p>
      {payments.rows.length === 0 ? (
        <p className="text-slate-700">{t('payments.none')}</p>
      ) : (
        <ul className="space-y-3" aria-label={t('payments.tableCaption')}>
          {payments.rows.map((row) => (
            <PaymentRow
              key={row.id}
              row={row}
              receipt={invoice.receipt}
              canRefund={payments.canRefund}
              answer={
                (answer?.intent === 'refund_done' ||
                  answer?.intent === 'refund_provider' ||
                  answer?.intent === 'refund_balance' ||
                  answer?.intent === 'resolve_held') &&
                answer.paymentId === row.id
                  ? answer
                  : null
              }
            />
          ))}
        </ul>
      )}
      {payments.transfers.length > 0 ? (
        <ReportedTransfers
          transfers={payments.transfers}
          canDismiss={payments.canDismissTransfer}
          answer={answer?.intent === 'dismiss_transfer' ? answer : null}
        />
      ) : null}
      {payments.canRecord ? (
        <RecordBankTransfer
          invoice={invoice}
          lastResult={answer?.intent === 'record_payment' ? answer.result : undefined}
        />
      ) : null}
    </section>
  )
}

function PaymentRow({
  row,
  receipt,
  canRefund,
  answer,
}: {
  row: StaffPaymentRowData
  receipt: boolean
  canRefund: boolean
  answer: StaffPaymentsAnswer
}) {
  const { t } = useTranslation()
  const attention = row.status === 'held' || row.status === 'duplicate' || row.refundOutstanding
  return (
    <li
      className={`space-y-2 rounded-lg border p-4 ${attention ? 'border-amber-500 bg-amber-50' : 'border-slate-200'}`}
      data-testid={`payment-${row.status}`}
    >
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-semibold text-slate-900">{t(`payments.providers.${row.provider}`)}</span>
        <span className={`rounded-full px-3 py-0.5 text-sm font-semibold ${TONE[row.status]}`}>
          {t(`payments.statuses.${row.status}`)}
        </span>
        <span className="text-sm text-slate-700">{row.dateLabel}</span>
      </p>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-700">{t('payments.amount')}</dt>
        <dd className="text-slate-900">
          {t('payments.asked', { amount: row.askedLabel })}
          {row.reportedLabel !== null ? ` · ${t('payments.reported', { amount: row.reportedLabel })}` : null}
        </dd>
        {row.reference ? (
          <>
            <dt className="text-slate-700">{t('payments.reference')}</dt>
            <dd className="break-all text-slate-900">{row.reference}</dd>
          </>
        ) : null}
        {row.refundDueLabel ? (
          <>
            <dt className="text-slate-700">{t('payments.refund')}</dt>
            <dd className="text-slate-900">
              {t('payments.refundDue', { amount: row.refundDueLabel })}
              {row.refundDoneLabel ? ` · ${t('payments.refundDone', { amount: row.refundDoneLabel })}` : null}
            </dd>
          </>
        ) : null}
      </dl>
      {row.recordedBy ? (
        <p className="text-sm text-slate-700">{t('payments.recordedBy', { name: row.recordedBy })}</p>
      ) : null}
      {row.note ? <p className="whitespace-pre-line text-sm text-slate-800">{row.note}</p> : null}
      {row.status === 'held' ? (
        <p className="text-sm font-medium text-amber-950">{t('payments.heldHint')}</p>
      ) : null}
      {canRefund && row.status === 'held' ? (
        <ResolveHeldForm
          row={row}
          receipt={receipt}
          lastResult={answer?.intent === 'resolve_held' ? answer.result : undefined}
        />
      ) : null}
      {canRefund && row.refundOutstanding && row.viaProvider ? (
        <ProviderRefundForm
          row={row}
          lastResult={answer?.intent === 'refund_provider' ? answer.result : undefined}
        />
      ) : null}
      {canRefund && row.refundOutstanding ? (
        <RefundToBalanceForm
          row={row}
          lastResult={answer?.intent === 'refund_balance' ? answer.result : undefined}
        />
      ) : null}
      {canRefund && row.refundOutstanding ? (
        <RefundDoneForm row={row} lastResult={answer?.intent === 'refund_done' ? answer.result : undefined} />
      ) : null}
    </li>
  )
}

/** A form of one payment, with what the action answered it last. */
type RowFormProps = { row: StaffPaymentRowData; lastResult?: SubmissionResult<string[]> }

/** Accept the held payment as the quote's, or refund it whole; why, in an internal note. */
function ResolveHeldForm({ row, receipt, lastResult }: RowFormProps & { receipt: boolean }) {
  const { t } = useTranslation()
  const [form, fields] = useForm(checkedOnBlur(`resolve-${row.id}`, lastResult, ResolveHeldPaymentSchema))
  const formError = errorText(t, form.errors?.[0])
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      aria-label={t('payments.held.formLabel')}
      className="space-y-2 border-t border-amber-300 pt-3"
    >
      <input type="hidden" name="intent" value="resolve_held" />
      <input type="hidden" name="paymentId" value={row.id} />
      <input type="hidden" name="version" value={row.version} />
      <p className="text-sm text-slate-800">
        {receipt ? t('payments.held.leadReceipt') : t('payments.held.lead')}
      </p>
      <FormAlert id={form.errorId}>{formError}</FormAlert>
      <FormField
        id={fields.note.id}
        label={t('payments.held.note')}
        error={errorTextIn(t, 'payments.errors', fields.note.errors?.[0])}
      >
        {noteTextarea(fields.note)}
      </FormField>
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          name="resolution"
          value="accept"
          className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
        >
          {receipt ? t('payments.held.acceptReceipt') : t('payments.held.accept')}
        </button>
        <button
          type="submit"
          name="resolution"
          value="refund"
          className="min-h-11 rounded-md border border-slate-700 px-4 font-semibold text-slate-900 hover:bg-slate-100"
        >
          {t('payments.held.refund')}
        </button>
      </div>
    </Form>
  )
}

/** Gives back what is due through PayPal or Stripe, now: one button. */
function ProviderRefundForm({ row, lastResult }: RowFormProps) {
  const { t } = useTranslation()
  const [form, fields] = useForm({ id: `provider-refund-${row.id}`, lastResult })
  const confirmError = Boolean(fields.confirm?.errors?.length)
  const formError = form.errors?.[0] && !confirmError ? errorText(t, form.errors[0]) : null
  const provider = t(`payments.providers.${row.provider}`)
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-2 border-t border-amber-300 pt-3">
      <input type="hidden" name="intent" value="refund_provider" />
      <input type="hidden" name="paymentId" value={row.id} />
      <input type="hidden" name="version" value={row.version} />
      <FormAlert id={form.errorId}>{formError}</FormAlert>
      <p id={`provider-refund-hint-${row.id}`} className="text-sm text-slate-800">
        {t('payments.refundThroughHint', { provider })}
      </p>
      <ConfirmSubmit
        question={t('payments.refundConfirmQuestion', { amount: row.outstandingLabel, provider })}
        confirmLabel={t('payments.refundConfirm', { amount: row.outstandingLabel })}
        submitLabel={t('payments.refundThrough', { amount: row.outstandingLabel, provider })}
        error={confirmError ? t('confirmAction.required') : null}
        describedBy={`provider-refund-hint-${row.id}`}
        submitClassName="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
      />
    </Form>
  )
}

/**
 * What is due goes to the customer's balance at once instead of the way they paid
 * (docs/decisions/050): no reference to type, the ledger is the record.
 */
function RefundToBalanceForm({ row, lastResult }: RowFormProps) {
  const { t } = useTranslation()
  const formError = errorText(t, lastResult?.error?.['']?.[0])
  return (
    <Form method="post" className="space-y-2 border-t border-amber-300 pt-3">
      <input type="hidden" name="intent" value="refund_balance" />
      <input type="hidden" name="paymentId" value={row.id} />
      <FormAlert>{formError}</FormAlert>
      <p className="text-sm text-slate-700">{t('staffBalance.refundToBalanceHelp')}</p>
      <button
        type="submit"
        className="min-h-11 rounded-md border border-slate-700 px-4 font-semibold text-slate-900 hover:bg-slate-100"
      >
        {t('staffBalance.refundToBalance')}
      </button>
    </Form>
  )
}

function RefundDoneForm({ row, lastResult }: RowFormProps) {
  const { t } = useTranslation()
  const [form, fields] = useForm(checkedOnBlur(`refund-${row.id}`, lastResult, MarkRefundDoneSchema))
  const formError = errorText(t, form.errors?.[0])
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-2 border-t border-amber-300 pt-3">
      <input type="hidden" name="intent" value="refund_done" />
      <input type="hidden" name="paymentId" value={row.id} />
      <input type="hidden" name="version" value={row.version} />
      <FormAlert id={form.errorId}>{formError}</FormAlert>
      <FormField
        id={fields.reference.id}
        label={t('payments.refundReference')}
        error={errorTextIn(t, 'payments.errors', fields.reference.errors?.[0])}
      >
        {referenceInput(fields.reference)}
      </FormField>
      <button
        type="submit"
        className="min-h-11 rounded-md border border-slate-700 px-4 font-semibold text-slate-900 hover:bg-slate-100"
      >
        {t('payments.markRefundDone')}
      </button>
    </Form>
  )
}

function RecordBankTransfer({
  invoice,
  lastResult,
}: {
  invoice: NonNullable<StaffPaymentsData['invoice']>
  lastResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm({
    id: 'record-payment',
    lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: RecordManualPaymentSchema }),
  })
  const formError = errorText(t, form.errors?.[0])
  const fieldError = (errors: string[] | undefined) => errorTextIn(t, 'payments.errors', errors?.[0])
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      aria-labelledby="record-payment-heading"
      className="space-y-4 rounded-lg border border-slate-300 p-4"
    >
      <h3 id="record-payment-heading" className="text-lg font-semibold text-slate-900">
        {t('payments.record.heading')}
      </h3>
      <p className="text-sm text-slate-700">{t('payments.record.lead', { amount: invoice.totalLabel })}</p>
      <input type="hidden" name="intent" value="record_payment" />
      <input type="hidden" name="invoiceId" value={invoice.id} />
      <input type="hidden" name="version" value={invoice.version} />
      <FormAlert id={form.errorId}>{formError}</FormAlert>
      <FormField
        id={fields.amountJpy.id}
        label={t('payments.record.amount')}
        error={fieldError(fields.amountJpy.errors)}
      >
        {(control) => (
          <input
            {...getInputProps(fields.amountJpy, { type: 'text', ariaAttributes: false })}
            {...control}
            required
            inputMode="numeric"
            autoComplete="off"
            className={`${inputClass} sm:max-w-xs`}
          />
        )}
      </FormField>
      <FormField
        id={fields.reference.id}
        label={t('payments.record.reference')}
        hint={t('payments.record.referenceHint')}
        error={fieldError(fields.reference.errors)}
      >
        {referenceInput(fields.reference)}
      </FormField>
      <FormField id={fields.note.id} label={t('payments.record.note')} error={fieldError(fields.note.errors)}>
        {noteTextarea(fields.note)}
      </FormField>
      <button
        type="submit"
        className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
      >
        {t('payments.record.submit')}
      </button>
    </Form>
  )
}

/** The customer's word that they paid by bank transfer: the pending one with its receipt, then the past ones. */
function ReportedTransfers({
  transfers,
  canDismiss,
  answer,
}: {
  transfers: StaffTransferData[]
  canDismiss: boolean
  answer: StaffPaymentsAnswer
}) {
  const { t } = useTranslation()
  const pending = transfers.filter((transfer) => transfer.status === 'pending')
  const past = transfers.filter((transfer) => transfer.status !== 'pending')
  return (
    <section aria-labelledby="transfers-heading" className="space-y-3">
      <h3 id="transfers-heading" className="text-lg font-semibold text-slate-900">
        {t('payments.transfer.heading')}
      </h3>
      {pending.map((transfer) => (
        <div
          key={transfer.id}
          className="space-y-2 rounded-lg border-2 border-sky-300 bg-sky-50 p-4 text-sky-950"
          data-testid="transfer-pending"
        >
          <p className="font-semibold">
            {t('payments.transfer.reportedOn', {
              date: transfer.reportedLabel,
              number: transfer.invoiceNumber,
            })}
          </p>
          {transfer.note ? (
            <p className="whitespace-pre-line break-words">
              {t('payments.transfer.note', { note: transfer.note })}
            </p>
          ) : null}
          <p>
            {transfer.proof ? (
              <a href={transfer.proof.href} className="font-semibold text-red-800 underline">
                {t(transfer.proof.pdf ? 'payments.transfer.proofPdf' : 'payments.transfer.proofPhoto')}
              </a>
            ) : (
              t('payments.transfer.noProof')
            )}
          </p>
          <p>{t('payments.transfer.hint')}</p>
          {canDismiss ? (
            <DismissTransfer
              transfer={transfer}
              lastResult={answer?.paymentId === transfer.id ? answer.result : undefined}
            />
          ) : null}
        </div>
      ))}
      {past.length > 0 ? (
        <ul className="space-y-1 text-sm text-slate-800">
          {past.map((transfer) => (
            <li key={transfer.id}>
              {t(`payments.transfer.past.${transfer.status as 'confirmed'}`, {
                date: transfer.reportedLabel,
                resolved: transfer.resolvedLabel ?? '',
                number: transfer.invoiceNumber,
              })}
              {transfer.dismissReason ? ` ${transfer.dismissReason}` : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

function DismissTransfer({
  transfer,
  lastResult,
}: {
  transfer: StaffTransferData
  lastResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm(
    checkedOnBlur(`dismiss-transfer-${transfer.id}`, lastResult, DismissTransferSchema),
  )
  const formError = errorText(t, form.errors?.[0])
  const fieldError = (errors: string[] | undefined) => errorTextIn(t, 'payments.errors', errors?.[0])
  return (
    <details
      className="rounded-md border border-slate-300 bg-white p-3 text-slate-900"
      open={Boolean(lastResult)}
    >
      <summary className="cursor-pointer font-semibold">{t('payments.transfer.dismissOpen')}</summary>
      <Form method="post" {...getFormProps(form)} className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="dismiss_transfer" />
        <input type="hidden" name="noticeId" value={transfer.id} />
        <input type="hidden" name="version" value={transfer.version} />
        <FormAlert id={form.errorId}>{formError}</FormAlert>
        <FormField
          id={fields.reason.id}
          label={t('payments.transfer.reason')}
          hint={t('payments.transfer.reasonHint')}
          error={fieldError(fields.reason.errors)}
        >
          {(control) => (
            <textarea
              {...getTextareaProps(fields.reason, { ariaAttributes: false })}
              {...control}
              required
              rows={3}
              maxLength={1000}
              className={`${inputClass} py-2`}
            />
          )}
        </FormField>
        <button
          type="submit"
          className="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
        >
          {t('payments.transfer.dismiss')}
        </button>
      </Form>
    </details>
  )
}
