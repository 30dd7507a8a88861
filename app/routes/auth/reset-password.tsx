import { getFormProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Form, redirect, useActionData, useLoaderData } from 'react-router'
import { AuthField } from '#app/components/auth-field.tsx'
import { FailureAlert, PasswordRuleToasts } from '#app/components/failure-alert.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { resetPassword } from '#app/lib/auth-client.server.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { accountPageHeaders } from '#app/lib/session.server.ts'
import { areas } from '#app/locales/areas.ts'
import { ResetPasswordSchema } from '#core/accounts/account-schemas.ts'
import type { Route } from './+types/reset-password.ts'

// The e-mail link passes through better-auth, which checks the token and comes back here with
// ?token=… (or ?error=INVALID_TOKEN).

export const handle = areas('account')

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const token = url.searchParams.get('token')
  if (!token || url.searchParams.has('error')) throw redirect('/auth?reset=invalid')
  return { token }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await request.formData(), { schema: ResetPasswordSchema })
  if (submission.status !== 'success') {
    return data(
      { result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) },
      { status: 400 },
    )
  }
  try {
    const done = await resetPassword(
      { context, request },
      { newPassword: submission.value.password, token: submission.value.token },
    )
    if (!done) return redirect('/auth?reset=invalid')
    // The sign-in page, with the 'Password updated!' notice.
    return redirectWithNotice(context, '/auth', 'passwordUpdated')
  } catch (error) {
    // A refused password (too common) is refused before the token is spent: the same link
    // works with another password.
    const hidden = {
      reply: (options?: object) =>
        submission.reply({ ...options, hideFields: ['password', 'confirmPassword'] }),
    }
    return formFailure(error, hidden)
  }
}

export const headers: Route.HeadersFunction = accountPageHeaders

export default function ResetPasswordRoute() {
  const { t } = useTranslation()
  const { token } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm<{ token: string; password: string; confirmPassword: string }>({
    id: 'reset',
    lastResult: actionData?.result,
  })
  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <PageMeta title={t('auth.resetTitle')} description={t('auth.resetTitle')} />
      <h1 className="text-2xl font-bold text-slate-900">{t('auth.resetTitle')}</h1>
      <Form method="post" {...getFormProps(form)} noValidate className="mt-4 space-y-4">
        <FailureAlert titleKey="passwordUpdateFailed" messageKey={form.errors?.[0] ?? null} />
        <PasswordRuleToasts
          passwordErrors={fields.password.errors}
          confirmErrors={fields.confirmPassword.errors}
        />
        <input type="hidden" name="token" value={token} />
        <AuthField
          field={fields.password}
          label={t('auth.newPassword')}
          hint={t('auth.passwordHint')}
          type="password"
          autoComplete="new-password"
        />
        <AuthField
          field={fields.confirmPassword}
          label={t('auth.confirmPassword')}
          type="password"
          autoComplete="new-password"
        />
        <button
          type="submit"
          className="min-h-11 w-full rounded-md bg-red-700 font-semibold text-white hover:bg-red-800"
        >
          {t('auth.updatePassword')}
        </button>
      </Form>
    </section>
  )
}
