import { getFormProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router'
import { useFormError } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { CodeField, IntentButton, useFieldError } from '#app/components/mfa-fields.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { mfaClient, type PublicFactor } from '#app/lib/mfa.server.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { accountPageHeaders, getSessionUser } from '#app/lib/session.server.ts'
import { areas } from '#app/locales/areas.ts'
import { MFA_LIMITS } from '#core/accounts/mfa/mfa-limits.ts'
import { MfaChallengeFormSchema } from '#core/accounts/mfa/mfa-schemas.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Route } from './+types/mfa.ts'

// The second step of a sign-in: the password (or Google) passed, and no session exists until a
// code from one of the account's factors, or a backup code, is verified here.

export const handle = areas('account')

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getSessionUser(context, request)) throw redirect('/')
  const pending = await mfaClient(context, request)
    .pending()
    .catch((error: unknown) => {
      // No sign-in waits for a code (none started, expired, or too many wrong codes).
      if (isAppError(error)) throw redirect('/auth')
      throw error
    })
  const url = new URL(request.url)
  return {
    factors: pending.factors,
    backupCodesRemaining: pending.backupCodesRemaining,
    // An SMS was sent for this factor and challenge (post/redirect/get from `send-sms`).
    sent: { factorId: url.searchParams.get('factor'), challengeId: url.searchParams.get('challenge') },
    redirectTo: safeRedirect(url.searchParams.get('redirectTo')),
    smsMinutes: MFA_LIMITS.smsCodeSeconds / 60,
  }
}

/** Which form on the page sent the submission: the backup-code form, or one factor's. */
const formIdOf = (form: FormData) =>
  form.get('intent') === 'backup' ? 'backup' : `factor-${String(form.get('factorId') ?? '').slice(0, 64)}`

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  const formId = formIdOf(form)
  const redirectTo = safeRedirect(form.get('redirectTo'))
  const submission = parseSubmission(form, { schema: MfaChallengeFormSchema })
  if (submission.status !== 'success') return data({ formId, result: submission.reply() }, { status: 400 })
  const mfa = mfaClient(context, request)
  const input = submission.value
  try {
    if (input.intent === 'send-sms') {
      const challenge = await mfa.challenge(input.factorId)
      const query = new URLSearchParams({ factor: input.factorId, challenge: challenge.id, redirectTo })
      return redirect(`/auth/mfa?${query.toString()}`)
    }
    const verified =
      input.intent === 'backup'
        ? await mfa.verifyBackupCode(input.code)
        : await mfa.verifyCode({ factorId: input.factorId, code: input.code, challengeId: input.challengeId })
    return redirectWithNotice(context, redirectTo, 'signedIn', { setCookies: verified.setCookies })
  } catch (error) {
    return formFailure(error, submission, { formId })
  }
}

export const headers: Route.HeadersFunction = accountPageHeaders

/** A Conform form of this page, given the last answer when it was this form's. */
function useChallengeForm(id: string) {
  const actionData = useActionData<typeof action>()
  return useForm<{ code: string; factorId: string }>({
    id,
    lastResult: actionData?.formId === id ? actionData.result : undefined,
  })
}

export default function MfaChallengeRoute() {
  const { t } = useTranslation()
  const { factors, backupCodesRemaining, sent, redirectTo, smsMinutes } = useLoaderData<typeof loader>()
  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <PageMeta title={t('mfa.challengeTitle')} description={t('mfa.challengeLead')} />
      <h1 className="text-2xl font-bold text-slate-900">{t('mfa.challengeTitle')}</h1>
      <p className="mt-2 text-slate-700">{t('mfa.challengeLead')}</p>
      <div className="mt-6 space-y-6">
        {factors.map((factor) =>
          factor.type === 'totp' ? (
            <CodeForm
              key={factor.id}
              factor={factor}
              legend={t('mfa.useTotp', { name: factor.friendlyName })}
              redirectTo={redirectTo}
            />
          ) : sent.factorId === factor.id && sent.challengeId ? (
            <CodeForm
              key={factor.id}
              factor={factor}
              legend={t('mfa.usePhone', { name: factor.friendlyName, phone: factor.phone })}
              note={t('mfa.codeSent', { phone: factor.phone, minutes: smsMinutes })}
              challengeId={sent.challengeId}
              redirectTo={redirectTo}
              resend
            />
          ) : (
            <SendCodeForm key={factor.id} factor={factor} redirectTo={redirectTo} />
          ),
        )}
        {backupCodesRemaining > 0 ? <BackupCodeForm redirectTo={redirectTo} /> : null}
      </div>
      <p className="mt-8 text-center text-sm">
        <Link to="/auth" className="inline-flex min-h-11 items-center font-semibold text-red-800 underline">
          {t('mfa.startOver')}
        </Link>
      </p>
    </section>
  )
}

function SendCodeForm({ factor, redirectTo }: { factor: PublicFactor; redirectTo: string }) {
  const { t } = useTranslation()
  const [form] = useChallengeForm(`factor-${factor.id}`)
  return (
    <Form method="post" {...getFormProps(form)} className="rounded-lg border border-slate-200 p-4">
      <p className="font-medium text-slate-900">
        {t('mfa.usePhone', { name: factor.friendlyName, phone: factor.phone })}
      </p>
      <input type="hidden" name="factorId" value={factor.id} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <div className="mt-2">
        <FormAlert id={form.errorId} className="text-sm">
          {useFormError(form)}
        </FormAlert>
      </div>
      <IntentButton intent="send-sms" label={t('mfa.sendCode')} />
    </Form>
  )
}

function BackupCodeForm({ redirectTo }: { redirectTo: string }) {
  const { t } = useTranslation()
  const [form, fields] = useChallengeForm('backup')
  const error = useFieldError(fields.code, useFormError(form))
  return (
    <details className="rounded-lg border border-slate-200 p-4" open={error ? true : undefined}>
      <summary className="min-h-11 cursor-pointer py-2 font-medium text-slate-900">
        {t('mfa.useBackup')}
      </summary>
      <Form method="post" {...getFormProps(form)} className="mt-3 space-y-3">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormField
          id={fields.code.id}
          label={t('mfa.backupCode')}
          hint={t('mfa.backupCodeHint')}
          error={error}
        >
          {(control) => (
            <input
              {...control}
              key={fields.code.key}
              name={fields.code.name}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              required
              className={inputClass}
            />
          )}
        </FormField>
        <IntentButton intent="backup" label={t('mfa.verify')} />
      </Form>
    </details>
  )
}

function CodeForm({
  factor,
  legend,
  note,
  challengeId,
  redirectTo,
  resend = false,
}: {
  factor: PublicFactor
  legend: string
  note?: string
  challengeId?: string
  redirectTo: string
  resend?: boolean
}) {
  const { t } = useTranslation()
  const [form, fields] = useChallengeForm(`factor-${factor.id}`)
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3 rounded-lg border border-slate-200 p-4">
      <p className="font-medium text-slate-900">{legend}</p>
      {note ? (
        <p role="status" className="text-sm text-slate-700">
          {note}
        </p>
      ) : null}
      <input type="hidden" name="factorId" value={factor.id} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {challengeId ? <input type="hidden" name="challengeId" value={challengeId} /> : null}
      <CodeField field={fields.code} formError={useFormError(form)} />
      <div className="flex flex-wrap gap-3">
        <IntentButton intent="code" label={t('mfa.verify')} />
        {resend ? (
          <IntentButton intent="send-sms" label={t('mfa.resendCode')} secondary skipValidation />
        ) : null}
      </div>
    </Form>
  )
}
