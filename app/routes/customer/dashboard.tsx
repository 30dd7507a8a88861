import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router'
import { z } from 'zod'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { SecurityLink } from '#app/components/security-link.tsx'
import { requestContext } from '#app/context.ts'
import { callAuth } from '#app/lib/auth-client.server.ts'
import { flashCookie } from '#app/lib/cookies.server.ts'
import { formFailure, throwRouteError } from '#app/lib/http-errors.ts'
import { redirectWithCookies } from '#app/lib/session.server.ts'
import { getOrderContext, getUser } from '#app/middleware/auth.server.ts'
import { DeleteAccountSchema } from '#core/accounts/account-schemas.ts'
import { REQUEST_LIMITS, type SubmitRequestInput, SubmitRequestSchema } from '#core/orders/request-schemas.ts'
import { submitRequest } from '#core/orders/request-service.ts'
import type { Route } from './+types/dashboard.ts'

// The customer area's default tab: send a purchase request (links to items), and below it the
// account (download my data, delete the account). One page, two forms: the request form says
// which it is in a hidden `form` field; a post without it is the account deletion, as before.

const SignInMethodsSchema = z.array(z.object({ providerId: z.string() }))

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getUser(context)
  // Whether deleting asks for the password or, without one, for a ticked confirmation.
  const methods = await callAuth(
    context,
    request,
    { method: 'GET', path: '/list-accounts' },
    SignInMethodsSchema,
  ).catch(throwRouteError)
  return { user, hasPassword: methods.data.some((method) => method.providerId === 'credential') }
}

export async function action({ request, context }: Route.ActionArgs) {
  // A body that is not a form reads as an empty one: refused field by field (400).
  const formData = await request.formData().catch(() => new FormData())
  return formData.get('form') === 'request'
    ? submitRequestAction(formData, context)
    : deleteAccountAction(formData, request, context)
}

/** Sends the request; an added or removed row (no JavaScript) comes back as the form to go on with. */
async function submitRequestAction(formData: FormData, context: Route.ActionArgs['context']) {
  const submission = parseWithZod(formData, { schema: SubmitRequestSchema })
  if (submission.status !== 'success') {
    return data(
      { form: 'request' as const, result: submission.reply() },
      { status: submission.status === 'error' ? 400 : 200 },
    )
  }
  try {
    const { language } = context.get(requestContext)
    const created = await submitRequest(getOrderContext(context), submission.value, { locale: language })
    return redirect(`/user-dashboard/requests/${created.id}?sent=1`)
  } catch (error) {
    return formFailure(error, submission, { form: 'request' as const })
  }
}

/** Deleting the account asks for the password again (or, without one, a fresh session and a confirmation). */
async function deleteAccountAction(
  formData: FormData,
  request: Request,
  context: Route.ActionArgs['context'],
) {
  const submission = parseWithZod(formData, { schema: DeleteAccountSchema })
  if (submission.status !== 'success')
    return data({ form: 'delete' as const, result: submission.reply() }, { status: 400 })
  const { password, confirm } = submission.value
  try {
    const deleted = await callAuth(
      context,
      request,
      { method: 'POST', path: '/delete-user', body: { password, confirm: confirm === 'on' } },
      z.looseObject({ success: z.boolean() }),
    )
    return redirectWithCookies('/', deleted.setCookies, await flashCookie(context, 'accountDeleted'))
  } catch (error) {
    return formFailure(error, submission, { form: 'delete' as const })
  }
}

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return { 'Cache-Control': 'private, no-store', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) }
}

export default function UserDashboardRoute() {
  const { t } = useTranslation()
  const { user } = useLoaderData<typeof loader>()
  return (
    <>
      <PageMeta title={t('dashboard.userTitle')} description={t('dashboard.userTitle')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('dashboard.userTitle')}</h1>
      <p className="mt-3 text-slate-700">
        {t('dashboard.signedInAs', { name: user.name, email: user.email })}
      </p>
      {/* Every customer is a "user": the role is news only when it is something else. */}
      {user.role === 'user' ? null : (
        <p className="text-slate-700">{t('dashboard.role', { role: t(`session.roles.${user.role}`) })}</p>
      )}
      {/* Moderators work the request queue in the admin area (docs/decisions/021). */}
      {user.role === 'moderator' ? (
        <p className="mt-2">
          <Link
            to="/admin-dashboard/requests"
            className="font-semibold text-red-800 underline underline-offset-4"
          >
            {t('dashboard.staffQueue')}
          </Link>
        </p>
      ) : null}
      <RequestForm />
      <AccountSection />
    </>
  )
}

type RequestFormFields = {
  items: { url: string; quantity: string; notes: string }[]
  note: string
}

function RequestForm() {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm<RequestFormFields, SubmitRequestInput>({
    id: 'purchase-request',
    lastResult: actionData?.form === 'request' ? actionData.result : undefined,
    defaultValue: { items: [{ url: '', quantity: '1', notes: '' }] },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SubmitRequestSchema }),
  })
  const items = fields.items.getFieldList()
  const errorText = (errors: string[] | undefined) =>
    errors?.[0] ? t(`requests.errors.${errors[0] as 'required'}`) : null
  const formError = form.errors?.[0] ? t(form.errors[0] as 'errors.codes.invalid') : null
  const listError = errorText(fields.items.errors)
  return (
    <section aria-labelledby="request-heading" className="mt-10 space-y-4">
      <h2 id="request-heading" className="text-2xl font-bold text-slate-900">
        {t('requests.title')}
      </h2>
      <p className="max-w-3xl text-slate-700">{t('requests.lead')}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <input type="hidden" name="form" value="request" />
        {formError ? (
          <p id={form.errorId} role="alert" className="font-medium text-red-800">
            {formError}
          </p>
        ) : null}
        <ol className="space-y-4">
          {items.map((item, index) => {
            const item_ = item.getFieldset()
            const number = index + 1
            return (
              <li key={item.key} className="rounded-lg border border-slate-200 p-4">
                <fieldset className="space-y-3">
                  <legend className="font-semibold text-slate-900">
                    {t('requests.itemHeading', { number })}
                  </legend>
                  <FormField
                    id={item_.url.id}
                    label={t('requests.url')}
                    hint={t('requests.urlHint')}
                    error={errorText(item_.url.errors)}
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
                  <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
                    <FormField
                      id={item_.quantity.id}
                      label={t('requests.quantity')}
                      error={errorText(item_.quantity.errors)}
                    >
                      {(control) => (
                        <input
                          {...getInputProps(item_.quantity, { type: 'number', ariaAttributes: false })}
                          {...control}
                          min={1}
                          max={REQUEST_LIMITS.quantity}
                          step={1}
                          className={inputClass}
                        />
                      )}
                    </FormField>
                    <FormField
                      id={item_.notes.id}
                      label={t('requests.notes')}
                      error={errorText(item_.notes.errors)}
                    >
                      {(control) => (
                        <textarea
                          {...getTextareaProps(item_.notes, { ariaAttributes: false })}
                          {...control}
                          rows={2}
                          maxLength={REQUEST_LIMITS.notes}
                          className={`${inputClass} py-2`}
                        />
                      )}
                    </FormField>
                  </div>
                  {items.length > 1 ? (
                    <button
                      {...form.remove.getButtonProps({ name: fields.items.name, index })}
                      className="min-h-11 rounded-md border border-slate-400 px-4 text-sm font-semibold text-slate-800"
                    >
                      {t('requests.removeItem', { number })}
                    </button>
                  ) : null}
                </fieldset>
              </li>
            )
          })}
        </ol>
        {listError ? (
          <p id={fields.items.errorId} role="alert" className="text-sm font-medium text-red-800">
            {listError}
          </p>
        ) : null}
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
        <FormField id={fields.note.id} label={t('requests.note')} error={errorText(fields.note.errors)}>
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

function AccountSection() {
  const { t } = useTranslation()
  return (
    <div className="mt-10 space-y-6">
      <p>
        <SecurityLink />
      </p>
      <div className="rounded-lg border border-slate-200 p-5">
        <h2 className="font-semibold text-slate-900">{t('account.exportTitle')}</h2>
        <p className="mt-1 text-sm text-slate-700">{t('account.exportText')}</p>
        <a
          href="/account/export"
          download
          className="mt-3 inline-flex min-h-11 items-center rounded-md border border-slate-400 px-4 font-semibold"
        >
          {t('account.exportButton')}
        </a>
      </div>
      <DeleteAccountForm />
    </div>
  )
}

function DeleteAccountForm() {
  const { t } = useTranslation()
  const { hasPassword } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm<{ password: string; confirm: string }>({
    id: 'delete-account',
    lastResult: actionData?.form === 'delete' ? actionData.result : undefined,
  })
  // A refusal from the server (wrong password, stale session) is a form error, a locale key;
  // the schema's own problems are field errors under `auth.errors`.
  const formError = form.errors?.[0] ? t(form.errors[0] as 'errors.codes.invalid') : null
  const fieldError = fields.password.errors?.[0]
    ? t(`auth.errors.${fields.password.errors[0] as 'required'}`)
    : null
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3 rounded-lg border border-red-200 p-5">
      <h2 className="font-semibold text-red-900">{t('account.deleteTitle')}</h2>
      <p className="text-sm text-slate-700">
        {hasPassword ? t('account.deleteText') : t('account.deleteTextNoPassword')}
      </p>
      {hasPassword ? (
        <FormField id={fields.password.id} label={t('account.password')} error={fieldError ?? formError}>
          {(control) => (
            <input
              {...control}
              key={fields.password.key}
              name={fields.password.name}
              type="password"
              autoComplete="current-password"
              required
              className={inputClass}
            />
          )}
        </FormField>
      ) : (
        <div className="space-y-1">
          <label className="flex min-h-11 items-center gap-3 text-slate-900">
            <input
              type="checkbox"
              name={fields.confirm.name}
              required
              aria-describedby={formError ? form.errorId : undefined}
              className="h-5 w-5"
            />
            {t('account.confirmDelete')}
          </label>
          {formError ? (
            <p id={form.errorId} className="text-sm font-medium text-red-800">
              {formError}
            </p>
          ) : null}
        </div>
      )}
      <button
        type="submit"
        className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
      >
        {t('account.deleteButton')}
      </button>
    </Form>
  )
}
