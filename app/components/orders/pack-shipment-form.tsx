import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react'
import type { TFunction } from 'i18next'
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
  const photoErrors = (lastResult?.error as Record<string, string[] | null> | undefined)?.photos ?? undefined
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
        <NumericField
          meta={fields.weight}
          label={t('staffShipments.weight')}
          hint={t('staffShipments.weightHint')}
        />
        <BoxSizeFieldset length={fields.length} width={fields.width} height={fields.height} />
        <NumericField
          meta={fields.price}
          label={t('staffShipments.price')}
          hint={t('staffShipments.priceHint')}
        />
        <FormField
          id={fields.reason.id}
          label={t('staffShipments.reason')}
          error={packError(t, fields.reason.errors)}
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
          error={packError(t, photoErrors)}
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
        <PackSubmit preview={preview} />
      </Form>
    </section>
  )
}

/** One field of the pack form, as Conform gives it. */
type PackField = FieldMetadata<string, PackFields>

/** A field's problem, from the pack form's messages. */
const packError = (t: TFunction, errors: string[] | undefined) =>
  errorTextIn(t, 'staffShipments.packErrors', errors?.[0])

/** The box's size when measured: length, width and height. */
function BoxSizeFieldset({
  length,
  width,
  height,
}: {
  length: PackField
  width: PackField
  height: PackField
}) {
  const { t } = useTranslation()
  const side = (field: PackField, label: string) => (
    <FormField id={field.id} label={label} error={packError(t, field.errors)}>
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
    <fieldset className="space-y-2">
      <legend className="font-semibold text-slate-900">{t('staffShipments.size')}</legend>
      <div className="flex flex-wrap gap-4">
        {side(length, t('staffShipments.length'))}
        {side(width, t('staffShipments.width'))}
        {side(height, t('staffShipments.height'))}
      </div>
    </fieldset>
  )
}

/** A whole number with its hint: the box's weight in grams, or another price in yen. */
function NumericField({ meta, label, hint }: { meta: PackField; label: string; hint: string }) {
  const { t } = useTranslation()
  return (
    <FormField id={meta.id} label={label} hint={hint} error={packError(t, meta.errors)}>
      {(control) => (
        <input
          {...getInputProps(meta, { type: 'text', ariaAttributes: false })}
          {...control}
          inputMode="numeric"
          autoComplete="off"
          className={`${inputClass} max-w-40`}
        />
      )}
    </FormField>
  )
}

/** Pack; with another price than the rate table's (the server's preview), confirm its amounts first. */
function PackSubmit({ preview }: { preview: PackPreview | null }) {
  const { t } = useTranslation()
  return preview ? (
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
  )
}
