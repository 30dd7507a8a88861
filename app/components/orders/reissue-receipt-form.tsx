import {
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
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { PACKING_LIMITS, ReissueReceiptSchema } from '#core/shipping/shipment-schemas.ts'

/**
 * An admin re-issues a shipment's receipt at a corrected shipping price (docs/decisions/037): the
 * price and why; the server answers the first post with what will happen and its amounts (the old
 * receipt voided, or taken back by a credit note; the new total; a refund due or the rest to
 * pay), and the admin confirms. Works without JavaScript.
 */

export type ReissuePreview = {
  outcome: 'replace' | 'refund' | 'topay'
  number: string
  old: string
  total: string
  toPay: string
  refund: string
}

type ReissueFields = { id: string; version: string; price: string; reason: string; confirm: string }

export type ReissueAnswer = {
  intent: 'reissue'
  result: SubmissionResult<string[]>
  preview?: ReissuePreview | null
} | null

export function ReissueReceiptForm({
  shipment,
  receipt,
  answer,
}: {
  shipment: { id: string; version: number }
  receipt: { number: string; total: string }
  answer: ReissueAnswer
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm<ReissueFields, z.output<typeof ReissueReceiptSchema>>({
    id: 'reissue',
    lastResult: answer?.result,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: ReissueReceiptSchema }),
  })
  const preview = answer?.preview ?? null
  const fieldError = (errors: string[] | undefined) =>
    errorTextIn(t, 'staffShipments.reissue.errors', errors?.[0])
  const formError = form.errors?.[0] && !preview ? errorText(t, form.errors[0]) : null
  return (
    <section aria-labelledby="reissue-heading" className="space-y-3 rounded-lg border border-slate-300 p-4">
      <h2 id="reissue-heading" className="text-xl font-semibold text-slate-900">
        {t('staffShipments.reissue.heading')}
      </h2>
      <p className="text-slate-700">
        {t('staffShipments.reissue.lead', { number: receipt.number, amount: receipt.total })}
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="reissue" />
        <input type="hidden" name="id" value={shipment.id} />
        <input type="hidden" name="version" value={shipment.version} />
        <FormAlert id={form.errorId}>{formError}</FormAlert>
        <FormField
          id={fields.price.id}
          label={t('staffShipments.reissue.price')}
          error={fieldError(fields.price.errors)}
        >
          {(control) => (
            <input
              {...getInputProps(fields.price, { type: 'text', ariaAttributes: false })}
              {...control}
              inputMode="numeric"
              autoComplete="off"
              className={`${inputClass} max-w-40`}
            />
          )}
        </FormField>
        <FormField
          id={fields.reason.id}
          label={t('staffShipments.reissue.reason')}
          error={fieldError(fields.reason.errors)}
        >
          {(control) => (
            <textarea
              {...getTextareaProps(fields.reason, { ariaAttributes: false })}
              {...control}
              rows={2}
              maxLength={PACKING_LIMITS.reason}
              className={`${inputClass} py-2`}
            />
          )}
        </FormField>
        {preview ? (
          <ConfirmSubmit
            question={t(`staffShipments.reissue.question.${preview.outcome}`, preview)}
            confirmLabel={t('staffShipments.reissue.confirm', { total: preview.total })}
            submitLabel={t('staffShipments.reissue.submit')}
            error={t('staffShipments.reissue.confirmNeeded')}
            submitClassName="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
          />
        ) : (
          <button
            type="submit"
            className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
          >
            {t('staffShipments.reissue.check')}
          </button>
        )}
      </Form>
    </section>
  )
}
