import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { data, Form, useActionData, useLoaderData } from 'react-router'
import { z } from 'zod'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { SecurityLink } from '#app/components/security-link.tsx'
import { callAuth } from '#app/lib/auth-client.server.ts'
import { flashCookie } from '#app/lib/cookies.server.ts'
import { formFailure, throwRouteError } from '#app/lib/http-errors.ts'
import { redirectWithCookies } from '#app/lib/session.server.ts'
import { getUser } from '#app/middleware/auth.server.ts'
import { DeleteAccountSchema } from '#core/accounts/account-schemas.ts'
import type { Route } from './+types/dashboard.ts'

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

/** Deleting the account asks for the password again (or, without one, a fresh session and a confirmation). */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: DeleteAccountSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
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
    return formFailure(error, submission)
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
    <section className="mx-auto max-w-6xl px-4 py-12">
      <PageMeta title={t('dashboard.userTitle')} description={t('dashboard.userTitle')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('dashboard.userTitle')}</h1>
      <p className="mt-3 text-slate-700">
        {t('dashboard.signedInAs', { name: user.name, email: user.email })}
      </p>
      {/* Every customer is a "user": the role is news only when it is something else. */}
      {user.role === 'user' ? null : (
        <p className="text-slate-700">{t('dashboard.role', { role: t(`session.roles.${user.role}`) })}</p>
      )}
      <AccountSection />
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
    lastResult: actionData?.result,
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
