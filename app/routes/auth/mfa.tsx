import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { CodeField, IntentButton } from '#app/components/mfa-fields.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { challengeFactor, verifyFactorCode } from '#app/lib/mfa.server.ts'
import { failureStatus, type MfaErrorKey, mfaErrorKey } from '#app/lib/mfa-errors.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import {
  accountPageHeaders,
  authRequest,
  FLASH_SIGNED_IN,
  getSessionUser,
  redirectWithCookies,
} from '#app/lib/session.server.ts'
import type { PublicFactor } from '#core/accounts/mfa/factors.ts'
import { MFA_LIMITS } from '#core/accounts/mfa/mfa-limits.ts'
import type { Route } from './+types/mfa.ts'

// The second step of a sign-in: the password (or Google) passed, and no session exists until a
// code from one of the account's factors, or a backup code, is verified here.

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getSessionUser(context, request)) throw redirect('/')
  const pending = await authRequest(context, request, 'GET', '/mfa/pending')
  if (pending.status !== 200 || !pending.data) throw redirect('/auth')
  const url = new URL(request.url)
  return {
    factors: pending.data.factors as PublicFactor[],
    backupCodesRemaining: Number(pending.data.backupCodesRemaining ?? 0),
    // An SMS was sent for this factor and challenge (post/redirect/get from `send-sms`).
    sent: { factorId: url.searchParams.get('factor'), challengeId: url.searchParams.get('challenge') },
    redirectTo: safeRedirect(url.searchParams.get('redirectTo')),
    smsMinutes: MFA_LIMITS.smsCodeSeconds / 60,
  }
}

type ActionResult = { intent: string; factorId: string | null; error: MfaErrorKey }

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const factorId = String(form.get('factorId') ?? '').slice(0, 64)
  const code = String(form.get('code') ?? '').slice(0, 64)
  const redirectTo = safeRedirect(form.get('redirectTo'))
  const failed = (result: { status: number; data: Record<string, unknown> | null }) =>
    data<ActionResult>(
      { intent, factorId: factorId || null, error: mfaErrorKey(result.status, result.data) },
      { status: failureStatus(result.status) },
    )

  if (intent === 'send-sms') {
    const challenge = await challengeFactor(context, request, factorId)
    if (challenge.status !== 200) return failed(challenge)
    const query = new URLSearchParams({ factor: factorId, challenge: String(challenge.data?.id), redirectTo })
    return redirect(`/auth/mfa?${query.toString()}`)
  }
  if (intent !== 'backup' && intent !== 'code') {
    return data<ActionResult>({ intent, factorId: null, error: 'unexpected' }, { status: 400 })
  }
  const verified =
    intent === 'backup'
      ? await authRequest(context, request, 'POST', '/mfa/backup-codes/verify', { code })
      : await verifyFactorCode(context, request, {
          factorId,
          code,
          challengeId: String(form.get('challengeId') ?? '').slice(0, 64),
        })
  if (verified.status !== 200) return failed(verified)
  return redirectWithCookies(redirectTo, verified.setCookies, FLASH_SIGNED_IN)
}

export const headers: Route.HeadersFunction = accountPageHeaders

export default function MfaChallengeRoute() {
  const { t } = useTranslation()
  const { factors, backupCodesRemaining, sent, redirectTo, smsMinutes } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const errorFor = (intent: string, factorId: string | null) =>
    actionData && actionData.intent === intent && actionData.factorId === factorId
      ? t(`mfa.errors.${actionData.error}`)
      : null
  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <PageMeta title={t('mfa.challengeTitle')} description={t('mfa.challengeLead')} />
      <h1 className="text-2xl font-bold text-slate-900">{t('mfa.challengeTitle')}</h1>
      <p className="mt-2 text-slate-700">{t('mfa.challengeLead')}</p>
      {actionData?.error === 'signInExpired' ? (
        <div role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
          {t('mfa.errors.signInExpired')}
        </div>
      ) : null}
      <div className="mt-6 space-y-6">
        {factors.map((factor) =>
          factor.type === 'totp' ? (
            <CodeForm
              key={factor.id}
              factor={factor}
              legend={t('mfa.useTotp', { name: factor.friendlyName })}
              redirectTo={redirectTo}
              error={errorFor('code', factor.id)}
            />
          ) : sent.factorId === factor.id && sent.challengeId ? (
            <CodeForm
              key={factor.id}
              factor={factor}
              legend={t('mfa.usePhone', { name: factor.friendlyName, phone: factor.phone })}
              note={t('mfa.codeSent', { phone: factor.phone, minutes: smsMinutes })}
              challengeId={sent.challengeId}
              redirectTo={redirectTo}
              error={errorFor('code', factor.id) ?? errorFor('send-sms', factor.id)}
              resend
            />
          ) : (
            <Form key={factor.id} method="post" className="rounded-lg border border-slate-200 p-4">
              <p className="font-medium text-slate-900">
                {t('mfa.usePhone', { name: factor.friendlyName, phone: factor.phone })}
              </p>
              <input type="hidden" name="factorId" value={factor.id} />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              {errorFor('send-sms', factor.id) ? (
                <p role="alert" className="mt-2 text-sm font-medium text-red-800">
                  {errorFor('send-sms', factor.id)}
                </p>
              ) : null}
              <IntentButton intent="send-sms" label={t('mfa.sendCode')} />
            </Form>
          ),
        )}
        {backupCodesRemaining > 0 ? (
          <details
            className="rounded-lg border border-slate-200 p-4"
            open={actionData?.intent === 'backup' || undefined}
          >
            <summary className="min-h-11 cursor-pointer py-2 font-medium text-slate-900">
              {t('mfa.useBackup')}
            </summary>
            <Form method="post" className="mt-3 space-y-3">
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <FormField
                id="backup-code"
                label={t('mfa.backupCode')}
                hint={t('mfa.backupCodeHint')}
                error={errorFor('backup', null)}
              >
                {(control) => (
                  <input
                    {...control}
                    name="code"
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
        ) : null}
      </div>
      <p className="mt-8 text-center text-sm">
        <Link to="/auth" className="inline-flex min-h-11 items-center font-semibold text-red-800 underline">
          {t('mfa.startOver')}
        </Link>
      </p>
    </section>
  )
}

function CodeForm({
  factor,
  legend,
  note,
  challengeId,
  redirectTo,
  error,
  resend = false,
}: {
  factor: PublicFactor
  legend: string
  note?: string
  challengeId?: string
  redirectTo: string
  error: string | null
  resend?: boolean
}) {
  const { t } = useTranslation()
  const id = `code-${factor.id}`
  return (
    <Form method="post" className="space-y-3 rounded-lg border border-slate-200 p-4">
      <p className="font-medium text-slate-900">{legend}</p>
      {note ? (
        <p role="status" className="text-sm text-slate-700">
          {note}
        </p>
      ) : null}
      <input type="hidden" name="factorId" value={factor.id} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {challengeId ? <input type="hidden" name="challengeId" value={challengeId} /> : null}
      <CodeField id={id} error={error} />
      <div className="flex flex-wrap gap-3">
        <IntentButton intent="code" label={t('mfa.verify')} />
        {resend ? (
          <IntentButton intent="send-sms" label={t('mfa.resendCode')} secondary skipValidation />
        ) : null}
      </div>
    </Form>
  )
}
