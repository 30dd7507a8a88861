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
import { FormField, fileInputClass, inputClass } from '#app/components/form-field.tsx'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { PACKING_LIMITS, PackShipmentSchema } from '#core/shipping/shipment-schemas.ts'
import { PHOTO_INPUT_ACCEPT } from '#core/uploads/photo-rules.ts'

/**
 * Staff pack a requested shipment (docs/decisions/029): the box's weight, its size when measured,
 * another price only with its reason, a photo of the box. Multipart (the photo); the same schema
 * checks it in the browser and on the server. Works without JavaScript. Another price than the
 * rate table's is confirmed (docs/decisions/037): the server answers the first post with the
 * receipt's amounts (`preview`) and the form asks to confirm them.
 */

/** What a price other than the rate table's would issue, written out (the action's answer). */
export type PackPreview = {
  number: string
  weight: string
  price: string
  /** The rate table's price for this weight; null: the table has none. */
  rate: string | null
  storage: string
  tax: string
  total: string
}

type PackFields = {
  id: string
  version: string
  weight: string
  length: string
  width: string
  height: string
  price: string
  reason: string
  confirm: string
}

export function PackShipmentForm({
  shipment,
  methodLabel,
  lastResult,
  preview,
}: {
  shipment: { id: string; version: number }
  methodLabel: string
  lastResult: SubmissionResult<string[]> | undefined
  preview: PackPreview | null
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm<PackFields, z.output<typeof PackShipmentSchema>>({
    id: 'pack',
    lastResult,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: PackShipmentSchema }),
  })
  const fieldError = (errors: string[] | undefined) =>
    errorTextIn(t, 'staffShipments.packErrors', errors?.[0])
  const photoErrors = (lastResult?.error as Record<string, string[] | null> | undefined)?.photos ?? undefined
  const side = (field: (typeof fields)['length'], label: string) => (
    <FormField id={field.id} label={label} error={fieldError(field.errors)}>
      {(control) => (
        <input
          {...getInputProps(field, { type: 'text', ariaAttributes: false })}
          {...control}
          inputMode="numeric"
          autoComplete="off"
          className={`${inputClass} w-24`}
        />
      )}
    </FormField>
  )
  return (
    <section aria-labelledby="pack-heading" className="space-y-4 rounded-lg border border-slate-300 p-4">
      <h2 id="pack-heading" className="text-xl font-semibold text-slate-900">
        {t('staffShipments.packHeading')}
      </h2>
      <p className="text-slate-700">{t('staffShipments.packLead', { method: methodLabel })}</p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="pack" />
        <input type="hidden" name="id" value={shipment.id} />
        <input type="hidden" name="version" value={shipment.version} />
        <FormAlert id={form.errorId}>{errorText(t, form.errors?.[0])}</FormAlert>
        <FormField
          id={fields.weight.id}
          label={t('staffShipments.weight')}
          hint={t('staffShipments.weightHint')}
          error={fieldError(fields.weight.errors)}
        >
          {(control) => (
            <input
              {...getInputProps(fields.weight, { type: 'text', ariaAttributes: false })}
              {...control}
              inputMode="numeric"
              autoComplete="off"
              className={`${inputClass} max-w-40`}
            />
          )}
        </FormField>
        <fieldset className="space-y-2">
          <legend className="font-semibold text-slate-900">{t('staffShipments.size')}</legend>
          <div className="flex flex-wrap gap-4">
            {side(fields.length, t('staffShipments.length'))}
            {side(fields.width, t('staffShipments.width'))}
            {side(fields.height, t('staffShipments.height'))}
          </div>
        </fieldset>
        <FormField
          id={fields.price.id}
          label={t('staffShipments.price')}
          hint={t('staffShipments.priceHint')}
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
          label={t('staffShipments.reason')}
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
        <FormField
          id="pack-photo"
          label={t('staffShipments.photo')}
          hint={t('staffShipments.photoHint')}
          error={fieldError(photoErrors)}
        >
          {(control) => (
            <input
              {...control}
              type="file"
              name="photos"
              accept={PHOTO_INPUT_ACCEPT}
              className={fileInputClass}
            />
          )}
        </FormField>
        {preview ? (
          <ConfirmSubmit
            question={
              <>
                {preview.rate
                  ? t('staffShipments.packConfirmQuestion', preview)
                  : t('staffShipments.packConfirmQuestionNoRate', preview)}{' '}
                {t('staffShipments.packConfirmPhoto')}
              </>
            }
            confirmLabel={t('staffShipments.packConfirm', { price: preview.price })}
            submitLabel={t('staffShipments.pack')}
            error={t('staffShipments.packConfirmNeeded')}
            submitClassName="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
          />
        ) : (
          <button
            type="submit"
            className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
          >
            {t('staffShipments.pack')}
          </button>
        )}
      </Form>
    </section>
  )
}
