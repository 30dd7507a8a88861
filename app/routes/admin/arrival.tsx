import { type FieldMetadata, getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData } from 'react-router'
import type { z } from 'zod'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, fileInputClass, inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { readForm } from '#app/lib/form-data.server.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { getRequest } from '#core/orders/request-service.ts'
import { AppError } from '#core/shared/errors.ts'
import { can } from '#core/shared/staff-policy.ts'
import { PHOTO_INPUT_ACCEPT } from '#core/uploads/photo-rules.ts'
import {
  ARRIVAL_FORM_BODY_BYTES,
  ARRIVAL_LIMITS,
  BookArrivalSchema,
} from '#core/warehouse/arrival-schemas.ts'
import { bookArrival } from '#core/warehouse/arrival-service.ts'
import type { Route } from './+types/arrival.ts'

// Book in a parcel that arrived at the office for one request (staff who handle arrivals,
// docs/decisions/027): tick its items, weigh each, a shelf, condition notes and up to 8 photos.
// Multipart (the photos): read as it streams in, within ARRIVAL_FORM_BODY_BYTES, which the server
// also allows this page's posts (server/app.ts). Works without JavaScript.

const RECEIVABLE = ['to_buy', 'ordered']

/** The form's fields as the browser sends them. */
type ArrivalFields = {
  version: string
  items: { id: string; received?: string; weight?: string }[]
  shelf: string
  note: string
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  const detail = await getRequest(orders, params.id)
  if (!can(orders.actor, 'handle_arrivals')) {
    throw new AppError('forbidden', 'Booking arrivals is not for this role', {
      reason: 'staffActionForbidden',
    })
  }
  return {
    request: { id: detail.id, number: detail.number, version: detail.version, status: detail.status },
    items: detail.items
      .filter((item) => RECEIVABLE.includes(item.status))
      .map((item) => ({
        id: item.id,
        position: item.position,
        shopHost: item.shopHost,
        quantity: item.quantity,
      })),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const read = await readForm(request, {
    maxFiles: ARRIVAL_LIMITS.photos + 1,
    maxBytes: ARRIVAL_FORM_BODY_BYTES,
  })
  if (!read.ok && read.problem === 'tooLarge') {
    const result = parseSubmission(new FormData(), { schema: BookArrivalSchema }).reply({
      formErrors: ['errors.reasons.requestInvalid'],
      fieldErrors: { photos: ['photosTooLarge'] },
    })
    return data({ result }, { status: 413 })
  }
  const formData = read.ok ? read.formData : new FormData()
  formData.set('id', params.id)
  const photos = formData.getAll('photos').filter((value): value is File => typeof value !== 'string')
  formData.delete('photos')
  const submission = parseSubmission(formData, { schema: BookArrivalSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    // The form as sent (the service parses it again, as it does for any caller).
    await bookArrival(getOrderContext(context), submission.payload, photos)
  } catch (error) {
    return formFailure(error, submission)
  }
  return redirectWithNotice(context, `/admin-dashboard/requests/${params.id}`, 'itemsReceived')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function ArrivalRoute() {
  const { t } = useTranslation()
  const { request, items } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm<ArrivalFields, z.output<typeof BookArrivalSchema>>({
    id: 'arrival',
    lastResult: actionData?.result,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    defaultValue: { items: items.map((item) => ({ id: item.id })) },
    onValidate: ({ formData }) => parseSubmission(formData, { schema: BookArrivalSchema }),
  })
  const fieldError = (errors: string[] | undefined) => errorTextIn(t, 'arrival.errors', errors?.[0])
  const title = t('arrival.title', { number: request.number })
  const itemFields = fields.items.getFieldList()
  return (
    <article aria-labelledby="arrival-heading" className="max-w-3xl space-y-6">
      <PageMeta title={title} description={title} />
      <p>
        <Link to={`/admin-dashboard/requests/${request.id}`} className="font-semibold text-red-800 underline">
          {t('arrival.back', { number: request.number })}
        </Link>
      </p>
      <h1 id="arrival-heading" className="text-3xl font-bold text-slate-900">
        {title}
      </h1>
      {items.length === 0 ? (
        <p className="rounded-md bg-slate-50 p-4 text-slate-800">{t('arrival.nothingToReceive')}</p>
      ) : (
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-6">
          <p className="text-slate-700">{t('arrival.intro')}</p>
          <input type="hidden" name="id" value={request.id} />
          <input type="hidden" name="version" value={request.version} />
          <FormAlert id={form.errorId}>{errorText(t, form.errors?.[0])}</FormAlert>
          <FormAlert id={fields.items.errorId}>{fieldError(fields.items.errors)}</FormAlert>
          {items.map((item, index) => {
            const meta = itemFields[index]
            if (!meta) return null
            return <ArrivalItemFieldset key={item.id} item={item} meta={meta} />
          })}
          <ParcelFields
            shelf={fields.shelf}
            note={fields.note}
            photosErrors={(actionData?.result?.error as Record<string, string[]> | undefined)?.photos}
          />
          <button
            type="submit"
            className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
          >
            {t('arrival.submit')}
          </button>
        </Form>
      )}
    </article>
  )
}

/** One item of the parcel: its Received box and its weight. */
function ArrivalItemFieldset({
  item,
  meta,
}: {
  item: { id: string; position: number; shopHost: string }
  meta: FieldMetadata<ArrivalFields['items'][number], ArrivalFields>
}) {
  const { t } = useTranslation()
  const fieldError = (errors: string[] | undefined) => errorTextIn(t, 'arrival.errors', errors?.[0])
  const field = meta.getFieldset()
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4">
      <legend className="px-1 font-semibold text-slate-900">
        {t('arrival.itemLegend', { number: item.position, host: item.shopHost })}
      </legend>
      <input type="hidden" name={field.id.name} value={item.id} />
      <div className="flex min-h-11 items-center gap-3">
        <input
          {...getInputProps(field.received, { type: 'checkbox', ariaAttributes: false })}
          className="size-5 accent-red-700"
          aria-describedby={field.received.errors ? `${field.received.id}-error` : undefined}
        />
        <label htmlFor={field.received.id} className="font-medium text-slate-900">
          {t('arrival.received')}
        </label>
      </div>
      {field.received.errors?.[0] ? (
        <p id={`${field.received.id}-error`} className="text-sm font-medium text-red-800">
          {fieldError(field.received.errors)}
        </p>
      ) : null}
      <FormField
        id={field.weight.id}
        label={t('arrival.weight')}
        hint={t('arrival.weightHint')}
        error={fieldError(field.weight.errors)}
      >
        {(control) => (
          <input
            {...getInputProps(field.weight, { type: 'text', ariaAttributes: false })}
            {...control}
            inputMode="numeric"
            autoComplete="off"
            className={`${inputClass} max-w-48`}
          />
        )}
      </FormField>
    </fieldset>
  )
}

/** The whole parcel's shelf, condition notes and photos. */
function ParcelFields({
  shelf,
  note,
  photosErrors,
}: {
  shelf: FieldMetadata<string, ArrivalFields>
  note: FieldMetadata<string, ArrivalFields>
  photosErrors: string[] | undefined
}) {
  const { t } = useTranslation()
  const fieldError = (errors: string[] | undefined) => errorTextIn(t, 'arrival.errors', errors?.[0])
  return (
    <>
      <FormField
        id={shelf.id}
        label={t('arrival.shelf')}
        hint={t('arrival.shelfHint')}
        error={fieldError(shelf.errors)}
      >
        {(control) => (
          <input
            {...getInputProps(shelf, { type: 'text', ariaAttributes: false })}
            {...control}
            maxLength={ARRIVAL_LIMITS.shelf}
            autoComplete="off"
            className={`${inputClass} max-w-64`}
          />
        )}
      </FormField>
      <FormField
        id={note.id}
        label={t('arrival.note')}
        hint={t('arrival.noteHint')}
        error={fieldError(note.errors)}
      >
        {(control) => (
          <textarea
            {...getTextareaProps(note, { ariaAttributes: false })}
            {...control}
            rows={3}
            maxLength={ARRIVAL_LIMITS.note}
            className={`${inputClass} py-2`}
          />
        )}
      </FormField>
      <FormField
        id="arrival-photos"
        label={t('arrival.photos')}
        hint={t('arrival.photosHint')}
        error={fieldError(photosErrors)}
      >
        {(control) => (
          <input
            {...control}
            type="file"
            name="photos"
            multiple
            accept={PHOTO_INPUT_ACCEPT}
            className={fileInputClass}
          />
        )}
      </FormField>
    </>
  )
}
