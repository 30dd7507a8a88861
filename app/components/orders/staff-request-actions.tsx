import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { parseSubmission } from '#app/lib/form-submission.ts'
import {
  AddNoteSchema,
  QUOTE_LIMITS,
  RejectRequestSchema,
  RequestVersionSchema,
} from '#core/orders/quote-schemas.ts'
import { CANCEL_REASON_MAX, CancelRequestSchema } from '#core/orders/request-schemas.ts'

/**
 * The staff's buttons on a request page, each its own small form with the version the page
 * showed (a second click or a second admin finds it changed): approve (send the quote), reject
 * with a reason, revise an issued quote, add a note. The page shows only those the staff member
 * may use now (core/shared/staff-policy.ts and the request's status); the server checks again.
 */

type Common = { requestId: string; version: number; lastResult: SubmissionResult<string[]> | undefined }

function useErrorText() {
  const { t } = useTranslation()
  return {
    field: (errors: string[] | undefined) => errorTextIn(t, 'quote.errors', errors?.[0]),
    form: (errors: string[] | undefined) => errorText(t, errors?.[0]),
  }
}

function ActionBox({
  headingId,
  heading,
  children,
}: {
  headingId: string
  heading: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={headingId} className="space-y-3 rounded-lg border border-slate-200 p-4">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      {children}
    </section>
  )
}

function Hidden({ intent, requestId, version }: { intent: string; requestId: string; version: number }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={requestId} />
      <input type="hidden" name="version" value={version} />
    </>
  )
}

const primary = 'min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800'
const secondary = 'min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50'

export function ApproveForm({
  requestId,
  version,
  lastResult,
  daysToPay,
  complete,
  unpriced,
  withPricingForm = false,
}: Common & {
  daysToPay: number
  complete: boolean
  unpriced: number
  /**
   * The pricing form is on the page: this button submits it (form="quote-pricing"), so the
   * titles and prices as typed are saved with the approval (ADR 038).
   */
  withPricingForm?: boolean
}) {
  const { t } = useTranslation()
  const errors = useErrorText()
  const [form] = useForm({
    id: 'quote-approve',
    lastResult,
    onValidate: ({ formData }) => parseSubmission(formData, { schema: RequestVersionSchema }),
  })
  return (
    <ActionBox headingId="approve-heading" heading={t('quote.approveHeading')}>
      <p className="text-slate-700">{t('quote.approveHint', { days: daysToPay })}</p>
      {withPricingForm ? (
        <>
          <p className="text-slate-700">{t('quote.approveSavesTyped')}</p>
          <FormAlert id={form.errorId}>{errors.form(form.errors)}</FormAlert>
          <button type="submit" form="quote-pricing" name="intent" value="approve" className={primary}>
            {t('quote.approve')}
          </button>
        </>
      ) : (
        <>
          {complete ? null : (
            <p className="font-medium text-amber-900">{t('quote.unpriced', { count: unpriced })}</p>
          )}
          <Form method="post" {...getFormProps(form)} className="space-y-3">
            <Hidden intent="approve" requestId={requestId} version={version} />
            <FormAlert id={form.errorId}>{errors.form(form.errors)}</FormAlert>
            <button type="submit" className={primary}>
              {t('quote.approve')}
            </button>
          </Form>
        </>
      )}
    </ActionBox>
  )
}

export function RejectForm({ requestId, version, lastResult }: Common) {
  const { t } = useTranslation()
  const errors = useErrorText()
  const [form, fields] = useForm({
    id: 'quote-reject',
    lastResult,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: RejectRequestSchema }),
  })
  return (
    <ActionBox headingId="reject-heading" heading={t('quote.rejectHeading')}>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <Hidden intent="reject" requestId={requestId} version={version} />
        <FormAlert id={form.errorId}>{errors.form(form.errors)}</FormAlert>
        <FormField
          id={fields.reason.id}
          label={t('quote.reason')}
          hint={t('quote.reasonHint')}
          error={errors.field(fields.reason.errors)}
        >
          {(control) => (
            <textarea
              {...getTextareaProps(fields.reason, { ariaAttributes: false })}
              {...control}
              rows={3}
              maxLength={QUOTE_LIMITS.reason}
              className={`${inputClass} py-2`}
            />
          )}
        </FormField>
        <button type="submit" className={secondary}>
          {t('quote.reject')}
        </button>
      </Form>
    </ActionBox>
  )
}

export function ReviseForm({
  requestId,
  version,
  lastResult,
  invoiceNumber,
}: Common & { invoiceNumber: string }) {
  const { t } = useTranslation()
  const errors = useErrorText()
  const [form] = useForm({
    id: 'quote-revise',
    lastResult,
    onValidate: ({ formData }) => parseSubmission(formData, { schema: RequestVersionSchema }),
  })
  return (
    <ActionBox headingId="revise-heading" heading={t('quote.reviseHeading')}>
      <p className="text-slate-700">{t('quote.reviseHint', { number: invoiceNumber })}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <Hidden intent="revise" requestId={requestId} version={version} />
        <FormAlert id={form.errorId}>{errors.form(form.errors)}</FormAlert>
        <button type="submit" className={secondary}>
          {t('quote.revise')}
        </button>
      </Form>
    </ActionBox>
  )
}

export function NoteForm({ requestId, version, lastResult }: Common) {
  const { t } = useTranslation()
  const errors = useErrorText()
  const [form, fields] = useForm({
    id: 'request-note',
    lastResult,
    defaultValue: { visibility: 'internal' },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: AddNoteSchema }),
  })
  const visibilityError = errors.field(fields.visibility.errors)
  return (
    <ActionBox headingId="note-heading" heading={t('quote.notesHeading')}>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <Hidden intent="note" requestId={requestId} version={version} />
        <FormAlert id={form.errorId}>{errors.form(form.errors)}</FormAlert>
        <FormField
          id={fields.text.id}
          label={t('quote.noteText')}
          hint={t('quote.noteHint')}
          error={errors.field(fields.text.errors)}
        >
          {(control) => (
            <textarea
              {...getTextareaProps(fields.text, { ariaAttributes: false })}
              {...control}
              rows={3}
              maxLength={QUOTE_LIMITS.note}
              className={`${inputClass} py-2`}
            />
          )}
        </FormField>
        <fieldset
          className="space-y-1"
          aria-describedby={visibilityError ? `${fields.visibility.id}-error` : undefined}
        >
          <legend className="text-sm font-medium text-slate-800">{t('quote.visibility')}</legend>
          {(['internal', 'customer'] as const).map((value) => (
            <label key={value} className="flex min-h-11 items-center gap-2 text-slate-900">
              <input
                {...getInputProps(fields.visibility, { type: 'radio', value, ariaAttributes: false })}
                id={`${fields.visibility.id}-${value}`}
                className="size-5"
              />
              {value === 'internal' ? t('quote.visibilityInternal') : t('quote.visibilityCustomer')}
            </label>
          ))}
          {visibilityError ? (
            <p id={`${fields.visibility.id}-error`} className="text-sm font-medium text-red-800">
              {visibilityError}
            </p>
          ) : null}
        </fieldset>
        <button type="submit" className={secondary}>
          {t('quote.addNote')}
        </button>
      </Form>
    </ActionBox>
  )
}

/**
 * Staff cancel a request not paid yet (submitted or quoted), with the reason the customer reads
 * in their e-mail and notification (docs/decisions/037); an open quote is voided with it.
 */
export function CancelRequestForm({ requestId, version, lastResult }: Common) {
  const { t } = useTranslation()
  const errors = useErrorText()
  const [form, fields] = useForm({
    id: 'request-cancel',
    lastResult,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: CancelRequestSchema }),
  })
  return (
    <ActionBox headingId="cancel-heading" heading={t('quote.cancelHeading')}>
      <p className="text-slate-700">{t('quote.cancelHint')}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <Hidden intent="cancel" requestId={requestId} version={version} />
        <FormAlert id={form.errorId}>{errors.form(form.errors)}</FormAlert>
        <FormField
          id={fields.reason.id}
          label={t('quote.cancelReason')}
          error={errors.field(fields.reason.errors)}
        >
          {(control) => (
            <textarea
              {...getTextareaProps(fields.reason, { ariaAttributes: false })}
              {...control}
              rows={3}
              required
              maxLength={CANCEL_REASON_MAX}
              className={`${inputClass} py-2`}
            />
          )}
        </FormField>
        <button type="submit" className={secondary}>
          {t('quote.cancelSubmit')}
        </button>
      </Form>
    </ActionBox>
  )
}
