import { getFormProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData } from 'react-router'
import { AuthField } from '#app/components/auth-field.tsx'
import { FailureAlert } from '#app/components/failure-alert.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestPasswordReset } from '#app/lib/auth-client.server.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { areas } from '#app/locales/areas.ts'
import { ForgotPasswordSchema } from '#core/accounts/account-schemas.ts'
import type { Route } from './+types/forgot-password.ts'

export const handle = areas('account')

export function loader({ request }: Route.LoaderArgs) {
  return { sent: new URL(request.url).searchParams.get('sent') === '1' }
}

/** The same answer whether or not the account exists. */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseSubmission(await request.formData(), { schema: ForgotPasswordSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await requestPasswordReset({ context, request }, submission.value.email)
  } catch (error) {
    return formFailure(error, submission)
  }
  // `?sent=1` is the check-your-email screen (a state of this page), not a notice.
  return redirectWithNotice(context, '/forgot-password?sent=1', 'resetLinkSent')
}

export default function ForgotPasswordRoute() {
  const { t } = useTranslation()
  const { sent } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useForm<{ email: string }>({ id: 'forgot', lastResult: actionData?.result })
  const formError = form.errors?.[0]
  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <PageMeta title={t('auth.forgotTitle')} description={t('auth.forgotText')} />
      <h1 className="text-2xl font-bold text-slate-900">{t('auth.forgotTitle')}</h1>
      {sent ? (
        <div className="mt-4 space-y-4">
          <p className="font-semibold text-slate-900">{t('auth.checkEmailHeading')}</p>
          <p className="text-slate-700">{t('auth.resetSentText')}</p>
          <Link to="/auth" className="inline-flex min-h-11 items-center font-semibold text-red-800 underline">
            {t('auth.backToSignIn')}
          </Link>
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate className="mt-4 space-y-4">
          <p className="text-slate-700">{t('auth.forgotText')}</p>
          <FailureAlert titleKey="passwordResetFailed" messageKey={formError ?? null} />
          <AuthField field={fields.email} label={t('auth.email')} type="email" autoComplete="email" />
          <button
            type="submit"
            className="min-h-11 w-full rounded-md bg-red-700 font-semibold text-white hover:bg-red-800"
          >
            {t('auth.sendLink')}
          </button>
        </Form>
      )}
    </section>
  )
}
