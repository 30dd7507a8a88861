import {
  type FieldMetadata,
  type FormMetadata,
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
} from '@conform-to/react'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData } from 'react-router'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { ItemEstimate } from '#app/components/orders/item-estimate.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { readForm } from '#app/lib/form-data.server.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { type HomeImportRules, homeImportRules } from '#app/lib/import-estimate.server.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { getOrderContext, getUser } from '#app/middleware/auth.server.ts'
import { balanceOf } from '#core/balance-ledger/ledger.ts'
import { formatMoney } from '#core/money/money.ts'
import {
  REQUEST_FORM_BODY_BYTES,
  REQUEST_LIMITS,
  type SubmitRequestInput,
  SubmitRequestSchema,
} from '#core/orders/request-schemas.ts'
import { knownShops, submitRequest } from '#core/orders/request-service.ts'
import { type KnownShop, shopHostOf, shopOf } from '#core/orders/shop-hosts.ts'
import { PHOTO_INPUT_ACCEPT } from '#core/uploads/photo-rules.ts'
import type { Route } from './+types/dashboard.ts'

// The customer area's default tab: send a purchase request (links to items, each with an optional
// photo and, with JavaScript, an estimate of its price). The account (security, download my data,
// delete the account) is on the profile tab (./profile.tsx). The form is multipart (its photos):
// read as it streams in, within REQUEST_FORM_BODY_BYTES, which the server also allows this page's
// posts and no other's (server/app.ts).

export async function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context)
  // A new one-time token each time the form is shown: the same form sent twice is one request.
  // The store guide's shops by host: the form says next to each link whether we know its shop.
  // The home country's import rule: each item's taxes at the door, estimated as it is typed.
  const [shops, landed] = await Promise.all([
    knownShops(context.get(requestContext).db),
    homeImportRules(context, getOrderContext(context)),
  ])
  // The customer balance (docs/decisions/050), written out in their language.
  const balanceJpy = await balanceOf(context.get(requestContext).db, user.id)
  const balanceLabel = formatMoney(balanceJpy, 'JPY', context.get(requestContext).language)
  return { user, submissionKey: crypto.randomUUID(), shops, landed, balanceLabel }
}

export async function action({ request, context }: Route.ActionArgs) {
  const read = await readForm(request, { maxFiles: REQUEST_LIMITS.items, maxBytes: REQUEST_FORM_BODY_BYTES })
  // More files or bytes than a request may have (the page's own checks keep a browser from it).
  if (!read.ok && read.problem === 'tooLarge') {
    const result = parseSubmission(new FormData(), { schema: SubmitRequestSchema }).reply({
      formErrors: ['errors.reasons.requestInvalid'],
      fieldErrors: { items: ['photosTooLarge'] },
    })
    return data({ form: 'request' as const, result }, { status: 413 })
  }
  // A body that is not a form reads as an empty one: refused field by field (400).
  const formData = read.ok ? read.formData : new FormData()
  return submitRequestAction(formData, context)
}

/** Sends the request; an added or removed row (no JavaScript) comes back as the form to go on with. */
async function submitRequestAction(formData: FormData, context: Route.ActionArgs['context']) {
  const submission = parseSubmission(formData, { schema: SubmitRequestSchema })
  if (submission.status !== 'success') {
    return data(
      { form: 'request' as const, result: submission.reply() },
      { status: submission.status === 'error' ? 400 : 200 },
    )
  }
  try {
    const { language } = context.get(requestContext)
    const created = await submitRequest(getOrderContext(context), submission.value, { locale: language })
    return redirectWithNotice(context, `/user-dashboard/requests/${created.id}`, {
      name: 'requestSent',
      params: { number: created.number },
    })
  } catch (error) {
    return formFailure(error, submission, { form: 'request' as const })
  }
}

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return { 'Cache-Control': 'private, no-store', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) }
}

export default function UserDashboardRoute() {
  const { t } = useTranslation()
  const { user, balanceLabel } = useLoaderData<typeof loader>()
  return (
    <>
      <PageMeta title={t('dashboard.userTitle')} description={t('dashboard.userTitle')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('dashboard.userTitle')}</h1>
      <p className="mt-3 text-slate-700">
        {t('dashboard.signedInAs', { name: user.name, email: user.email })}
      </p>
      {user.role === 'user' ? (
        <p className="mt-2">
          <Link
            to="/user-dashboard/balance"
            className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
            data-testid="dashboard-balance"
          >
            {t('balance.dashboardLink', { amount: balanceLabel })}
          </Link>
        </p>
      ) : null}
      {/* Every customer is a "user": the role is news only when it is something else. */}
      {user.role === 'user' ? null : (
        <p className="text-slate-700">{t('dashboard.role', { role: t(`session.roles.${user.role}`) })}</p>
      )}
      {/* Moderators work in the admin area: their work for today (docs/decisions/021, 036). */}
      {user.role === 'moderator' ? (
        <p className="mt-2">
          <Link to="/admin-dashboard" className="font-semibold text-red-800 underline underline-offset-4">
            {t('dashboard.staffQueue')}
          </Link>
        </p>
      ) : null}
      <RequestForm />
    </>
  )
}

type RequestFormFields = {
  items: { url: string; quantity: string; notes: string; photo: File }[]
  note: string
}

function RequestForm() {
  const { t } = useTranslation()
  const { submissionKey, shops, landed } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm<RequestFormFields, SubmitRequestInput>({
    id: 'purchase-request',
    lastResult: actionData?.form === 'request' ? actionData.result : undefined,
    defaultValue: { items: [{ url: '', quantity: '1', notes: '' }] },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: SubmitRequestSchema }),
  })
  const hydrated = useHydrated()
  const items = fields.items.getFieldList()
  const fieldErrorText = (errors: string[] | undefined) => errorTextIn(t, 'requests.errors', errors?.[0])
  // A page sent back by the server (without JavaScript) cannot keep the files that were chosen.
  const photosLost = !hydrated && actionData?.form === 'request'
  const formError = errorText(t, form.errors?.[0])
  const listError = fieldErrorText(fields.items.errors)
  return (
    <section aria-labelledby="request-heading" className="mt-10 space-y-4">
      <h2 id="request-heading" className="text-2xl font-bold text-slate-900">
        {t('requests.title')}
      </h2>
      <p className="max-w-3xl text-slate-700">{t('requests.lead')}</p>
      <p className="max-w-3xl text-slate-700">
        <Link to="/prohibited-items" className="font-semibold text-red-800 underline">
          {t('requests.prohibited')}
        </Link>
      </p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-5">
        <input type="hidden" name="form" value="request" />
        <input type="hidden" name="submissionKey" value={submissionKey} />
        <FormAlert id={form.errorId}>{formError}</FormAlert>
        <ol className="space-y-4">
          {items.map((item, index) => (
            <RequestItem
              key={item.key}
              item={item}
              index={index}
              form={form}
              list={fields.items}
              count={items.length}
              shops={shops}
              landed={landed}
              hydrated={hydrated}
              photosLost={photosLost}
            />
          ))}
        </ol>
        <FormAlert id={fields.items.errorId} className="text-sm">
          {listError}
        </FormAlert>
        {items.length < REQUEST_LIMITS.items ? (
          <button
            {...form.insert.getButtonProps({
              name: fields.items.name,
              defaultValue: { url: '', quantity: '1', notes: '' },
            })}
            className="min-h-11 rounded-md border border-slate-400 px-4 font-semibold text-slate-900"
          >
            {t('requests.addItem')}
          </button>
        ) : (
          <p className="text-sm text-slate-700">{t('requests.maxItems')}</p>
        )}
        <FormField id={fields.note.id} label={t('requests.note')} error={fieldErrorText(fields.note.errors)}>
          {(control) => (
            <textarea
              {...getTextareaProps(fields.note, { ariaAttributes: false })}
              {...control}
              rows={3}
              maxLength={REQUEST_LIMITS.notes}
              className={`${inputClass} py-2`}
            />
          )}
        </FormField>
        <button
          type="submit"
          className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {t('requests.send')}
        </button>
      </Form>
    </section>
  )
}

/** Beside a link, once typed: the guide's shop it is from, or that we check an unknown shop first. */
function shopNote(t: TFunction, shops: readonly KnownShop[], value: unknown): string | null {
  if (typeof value !== 'string' || !/^https?:\/\/[^/\s]+\.[^/\s]+/i.test(value.trim())) return null
  const shop = shopOf(value.trim(), shops)
  if (shop) return t('requests.shopKnown', { name: shop.name })
  try {
    return t('requests.shopUnknown', { host: shopHostOf(value.trim()) })
  } catch {
    return null
  }
}

type RequestItemFields = RequestFormFields['items'][number]

/** One item of the request: its link, quantity, notes and photo, its estimate, and "remove". */
function RequestItem({
  item,
  index,
  form,
  list,
  count,
  shops,
  landed,
  hydrated,
  photosLost,
}: {
  item: FieldMetadata<RequestItemFields, RequestFormFields>
  index: number
  form: FormMetadata<RequestFormFields>
  /** The form's list of items (its name, for "remove"). */
  list: FieldMetadata<RequestItemFields[], RequestFormFields>
  /** How many items the form has: the last one cannot be removed. */
  count: number
  shops: readonly KnownShop[]
  landed: HomeImportRules | null
  hydrated: boolean
  /** The page came back from the server without JavaScript: the chosen photos are gone. */
  photosLost: boolean
}) {
  const { t } = useTranslation()
  const item_ = item.getFieldset()
  const number = index + 1
  const fieldErrorText = (errors: string[] | undefined) => errorTextIn(t, 'requests.errors', errors?.[0])
  // A photo's problems are the server's refusals' (photoTooLarge, photoType…).
  const photoErrorText = (errors: string[] | undefined) => errorTextIn(t, 'errors.reasons', errors?.[0])
  return (
    <li className="rounded-lg border border-slate-200 p-4">
      <fieldset className="space-y-3">
        <legend className="font-semibold text-slate-900">{t('requests.itemHeading', { number })}</legend>
        <FormField
          id={item_.url.id}
          label={t('requests.url')}
          hint={[t('requests.urlHint'), hydrated ? shopNote(t, shops, item_.url.value) : null]
            .filter(Boolean)
            .join(' ')}
          error={fieldErrorText(item_.url.errors)}
        >
          {(control) => (
            <input
              {...getInputProps(item_.url, { type: 'url', ariaAttributes: false })}
              {...control}
              required
              maxLength={REQUEST_LIMITS.url}
              inputMode="url"
              autoComplete="off"
              className={inputClass}
            />
          )}
        </FormField>
        <QuantityAndNotes quantity={item_.quantity} notes={item_.notes} />
        <FormField
          id={item_.photo.id}
          label={t('requests.photo')}
          hint={
            photosLost ? `${t('requests.photoHint')} ${t('requests.photoAgain')}` : t('requests.photoHint')
          }
          error={photoErrorText(item_.photo.errors)}
        >
          {(control) => (
            <input
              {...control}
              key={item_.photo.key}
              name={item_.photo.name}
              type="file"
              accept={PHOTO_INPUT_ACCEPT}
              className="block w-full text-sm text-slate-800 file:mr-3 file:min-h-11 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-4 file:font-semibold file:text-slate-900"
            />
          )}
        </FormField>
        {hydrated ? (
          <ItemEstimate
            id={`${item_.url.id}-price`}
            quantity={item_.quantity.value}
            url={item_.url.value}
            landed={landed}
          />
        ) : null}
        {count > 1 ? (
          <button
            {...form.remove.getButtonProps({ name: list.name, index })}
            className="min-h-11 rounded-md border border-slate-400 px-4 text-sm font-semibold text-slate-800"
          >
            {t('requests.removeItem', { number })}
          </button>
        ) : null}
      </fieldset>
    </li>
  )
}

/** An item's quantity and notes, side by side from the small breakpoint. */
function QuantityAndNotes({
  quantity,
  notes,
}: {
  quantity: FieldMetadata<string, RequestFormFields>
  notes: FieldMetadata<string, RequestFormFields>
}) {
  const { t } = useTranslation()
  const fieldErrorText = (errors: string[] | undefined) => errorTextIn(t, 'requests.errors', errors?.[0])
  return (
    <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
      <FormField id={quantity.id} label={t('requests.quantity')} error={fieldErrorText(quantity.errors)}>
        {(control) => (
          <input
            {...getInputProps(quantity, { type: 'number', ariaAttributes: false })}
            {...control}
            min={1}
            max={REQUEST_LIMITS.quantity}
            step={1}
            className={inputClass}
          />
        )}
      </FormField>
      <FormField id={notes.id} label={t('requests.notes')} error={fieldErrorText(notes.errors)}>
        {(control) => (
          <textarea
            {...getTextareaProps(notes, { ariaAttributes: false })}
            {...control}
            rows={2}
            maxLength={REQUEST_LIMITS.notes}
            className={`${inputClass} py-2`}
          />
        )}
      </FormField>
    </div>
  )
}
