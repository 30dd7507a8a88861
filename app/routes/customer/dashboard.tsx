import { useTranslation } from 'react-i18next'
import { data, Form, redirect, useActionData, useLoaderData } from 'react-router'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { SecurityLink } from '#app/components/security-link.tsx'
import { authRequest } from '#app/lib/session.server.ts'
import { getUser } from '#app/middleware/auth.server.ts'
import type { Route } from './+types/dashboard.ts'

export function loader({ context }: Route.LoaderArgs) {
  const user = getUser(context)
  return { user }
}

/** Deleting the account asks for the password again; better-auth checks it. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  const password = String(form.get('password') ?? '').slice(0, 200)
  const result = await authRequest(context, request, 'POST', '/delete-user', { password })
  if (result.status !== 200)
    return data({ error: 'wrongPassword' as const }, { status: result.status === 429 ? 429 : 400 })
  const headers = new Headers()
  for (const cookie of result.setCookies) headers.append('Set-Cookie', cookie)
  headers.append('Set-Cookie', 'flash=accountDeleted; Path=/; Max-Age=60; SameSite=Lax; HttpOnly')
  return redirect('/', { headers })
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

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
      <p className="text-slate-700">{t('dashboard.role', { role: t(`session.roles.${user.role}`) })}</p>
      <AccountSection />
    </section>
  )
}

function AccountSection() {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  return (
    <section aria-labelledby="account-heading" className="mt-10 space-y-6">
      <h2 id="account-heading" className="text-2xl font-bold text-slate-900">
        {t('account.heading')}
      </h2>
      <p>
        <SecurityLink />
      </p>
      <div className="rounded-lg border border-slate-200 p-5">
        <h3 className="font-semibold text-slate-900">{t('account.exportTitle')}</h3>
        <p className="mt-1 text-sm text-slate-700">{t('account.exportText')}</p>
        <a
          href="/account/export"
          download
          className="mt-3 inline-flex min-h-11 items-center rounded-md border border-slate-400 px-4 font-semibold"
        >
          {t('account.exportButton')}
        </a>
      </div>
      <Form method="post" className="space-y-3 rounded-lg border border-red-200 p-5">
        <h3 className="font-semibold text-red-900">{t('account.deleteTitle')}</h3>
        <p className="text-sm text-slate-700">{t('account.deleteText')}</p>
        <FormField
          id="delete-password"
          label={t('account.password')}
          error={actionData?.error ? t(`account.${actionData.error}`) : null}
        >
          {(control) => (
            <input
              {...control}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              className={inputClass}
            />
          )}
        </FormField>
        <button
          type="submit"
          className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
        >
          {t('account.deleteButton')}
        </button>
      </Form>
    </section>
  )
}
