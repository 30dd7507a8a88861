import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { CodeField, IntentButton } from '#app/components/mfa-fields.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { challengeFactor, verifyFactorCode } from '#app/lib/mfa.server.ts'
import { failureStatus, type MfaErrorKey, mfaErrorKey } from '#app/lib/mfa-errors.ts'
import { qrPath } from '#app/lib/qr.server.ts'
import { accountPageHeaders, authRequest } from '#app/lib/session.server.ts'
import { getUser } from '#app/middleware/auth.server.ts'
import type { PublicFactor } from '#core/accounts/mfa/factors.ts'
import { MFA_LIMITS } from '#core/accounts/mfa/mfa-limits.ts'
import type { Aal } from '#core/accounts/mfa/mfa-policy.ts'
import type { Route } from './+types/security.ts'

// The account's security settings: this session's assurance level, the second factors (add an
// authenticator app or a phone, confirm with a code, remove with the password), backup codes.

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getUser(context)
  const list = await authRequest(context, request, 'GET', '/mfa/factors')
  if (list.status !== 200 || !list.data) throw new Response(null, { status: 502 })
  const factors = list.data.factors as PublicFactor[]
  // An authenticator app being set up shows its QR code and key until a code confirms it.
  const setups = await Promise.all(
    factors
      .filter((factor) => factor.type === 'totp' && factor.status === 'unverified')
      .map(async (factor) => {
        const setup = await authRequest(context, request, 'GET', `/mfa/factors/${factor.id}/totp-setup`)
        const secret = String(setup.data?.secret ?? '')
        return { factorId: factor.id, secret, qr: qrPath(String(setup.data?.uri ?? '')) }
      }),
  )
  const url = new URL(request.url)
  return {
    user,
    aal: list.data.aal as Aal,
    factors,
    setups,
    backupCodesRemaining: Number(list.data.backupCodesRemaining ?? 0),
    sent: { factorId: url.searchParams.get('factor'), challengeId: url.searchParams.get('challenge') },
    smsMinutes: MFA_LIMITS.smsCodeSeconds / 60,
  }
}

type ActionResult =
  | { intent: string; ok: false; factorId: string | null; error: MfaErrorKey; field: string | null }
  | { intent: 'confirm'; ok: true; name: string; backupCodes: string[] | null }
  | { intent: 'remove'; ok: true; name: string }
  | { intent: 'regenerate'; ok: true; backupCodes: string[] }

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  const text = (name: string, max = 200) => String(form.get(name) ?? '').slice(0, max)
  const intent = text('intent', 20)
  const factorId = text('factorId', 64)
  const factorPath = `/mfa/factors/${encodeURIComponent(factorId)}`
  const failed = (result: { status: number; data: Record<string, unknown> | null }) =>
    data<ActionResult>(
      {
        intent,
        ok: false,
        factorId: factorId || null,
        error: mfaErrorKey(result.status, result.data),
        field: typeof result.data?.field === 'string' ? result.data.field : null,
      },
      { status: failureStatus(result.status) },
    )

  switch (intent) {
    case 'add-totp':
    case 'add-phone': {
      const type = intent === 'add-totp' ? 'totp' : 'phone'
      const created = await authRequest(context, request, 'POST', '/mfa/factors', {
        type,
        friendlyName: form.get('friendlyName'),
        ...(type === 'phone' ? { phone: form.get('phone') } : {}),
      })
      if (created.status !== 200) return failed(created)
      if (type === 'totp') return redirect('/account/security')
      return sendSms(String(created.data?.id))
    }
    case 'send-sms':
      return sendSms(factorId)
    case 'confirm': {
      const verified = await verifyFactorCode(context, request, {
        factorId,
        code: text('code', 64),
        challengeId: text('challengeId', 64),
      })
      if (verified.status !== 200) return failed(verified)
      const backupCodes = Array.isArray(verified.data?.backupCodes)
        ? (verified.data.backupCodes as string[])
        : null
      return data<ActionResult>({ intent, ok: true, name: text('name', 80), backupCodes })
    }
    case 'remove': {
      const removed = await authRequest(context, request, 'POST', `${factorPath}/remove`, {
        password: text('password'),
      })
      if (removed.status !== 200) return failed(removed)
      return data<ActionResult>({ intent, ok: true, name: text('name', 80) })
    }
    case 'regenerate': {
      const result = await authRequest(context, request, 'POST', '/mfa/backup-codes/regenerate', {
        password: text('password'),
      })
      if (result.status !== 200) return failed(result)
      return data<ActionResult>({ intent, ok: true, backupCodes: result.data?.backupCodes as string[] })
    }
    default:
      return data<ActionResult>(
        { intent, ok: false, factorId: null, error: 'unexpected', field: null },
        { status: 400 },
      )
  }

  /** Sends the phone a code, then shows the form for it (post/redirect/get). */
  async function sendSms(id: string) {
    const challenge = await challengeFactor(context, request, id)
    if (challenge.status !== 200) return failed(challenge)
    const query = new URLSearchParams({ factor: id, challenge: String(challenge.data?.id) })
    return redirect(`/account/security?${query.toString()}`)
  }
}

export const headers: Route.HeadersFunction = accountPageHeaders

export default function SecurityRoute() {
  const { t } = useTranslation()
  const { aal, factors, setups, backupCodesRemaining } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const shownCodes =
    actionData?.ok && (actionData.intent === 'confirm' || actionData.intent === 'regenerate')
      ? actionData.backupCodes
      : null
  return (
    <section className="mx-auto max-w-3xl px-4 py-12">
      <PageMeta title={t('mfa.securityTitle')} description={t('mfa.securityLead')} />
      <p className="text-sm">
        <Link to="/dashboard" className="inline-flex min-h-11 items-center text-red-800 underline">
          {t('mfa.backToAccount')}
        </Link>
      </p>
      <h1 className="text-3xl font-bold text-slate-900">{t('mfa.securityTitle')}</h1>
      <p className="mt-2 text-slate-700">{t('mfa.securityLead')}</p>

      <div className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-4">
        <h2 className="font-semibold text-slate-900">{t('mfa.assuranceHeading')}</h2>
        <p className="mt-1 text-slate-800" data-testid="aal">
          {aal === 'aal2' ? t('mfa.aal2') : t('mfa.aal1')}
        </p>
      </div>

      <Notice />

      {shownCodes ? <BackupCodes codes={shownCodes} /> : null}

      <h2 className="mt-10 text-2xl font-bold text-slate-900">{t('mfa.factorsHeading')}</h2>
      {factors.length === 0 ? <p className="mt-3 text-slate-700">{t('mfa.noFactors')}</p> : null}
      <ul className="mt-4 space-y-4">
        {factors.map((factor) => (
          <FactorItem
            key={factor.id}
            factor={factor}
            setup={setups.find((setup) => setup.factorId === factor.id)}
          />
        ))}
      </ul>

      {/* Keyed on the list, so the add forms start empty once a factor was added or removed. */}
      <div key={factors.length} className="mt-8 grid gap-6 md:grid-cols-2">
        <Card title={t('mfa.addTotpHeading')} text={t('mfa.addTotpText')}>
          <Form method="post" className="space-y-3">
            <TextField
              intent="add-totp"
              name="friendlyName"
              label={t('mfa.friendlyName')}
              hint={t('mfa.friendlyNameHint')}
            />
            <IntentButton intent="add-totp" label={t('mfa.addTotp')} />
          </Form>
        </Card>
        <Card title={t('mfa.addPhoneHeading')} text={t('mfa.addPhoneText')}>
          <Form method="post" className="space-y-3">
            <TextField
              intent="add-phone"
              name="friendlyName"
              label={t('mfa.friendlyName')}
              hint={t('mfa.friendlyNameHint')}
            />
            <TextField
              intent="add-phone"
              name="phone"
              label={t('mfa.phone')}
              hint={t('mfa.phoneHint')}
              type="tel"
              autoComplete="tel"
            />
            <IntentButton intent="add-phone" label={t('mfa.addPhone')} />
          </Form>
        </Card>
      </div>

      <h2 className="mt-10 text-2xl font-bold text-slate-900">{t('mfa.backupHeading')}</h2>
      <p className="mt-2 text-slate-700">{t('mfa.backupText')}</p>
      {factors.some((factor) => factor.status === 'verified') ? (
        <>
          <p className="mt-2 font-medium text-slate-900">
            {t('mfa.backupRemaining', { count: backupCodesRemaining })}
          </p>
          <Form method="post" className="mt-4 space-y-3 rounded-lg border border-slate-200 p-4">
            <p className="text-sm text-slate-700">{t('mfa.backupRegenerateText')}</p>
            <PasswordField intent="regenerate" id="regenerate-password" />
            <IntentButton intent="regenerate" label={t('mfa.backupRegenerate')} secondary />
          </Form>
        </>
      ) : (
        <p className="mt-2 text-slate-700">{t('mfa.backupNone')}</p>
      )}
    </section>
  )
}

/** The outcome of the last action that has no place of its own (a confirmation, a removal). */
function Notice() {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  if (!actionData) return null
  if (actionData.ok) {
    if (actionData.intent === 'regenerate') return null
    const text =
      actionData.intent === 'confirm'
        ? t('mfa.factorAdded', { name: actionData.name })
        : t('mfa.factorRemoved', { name: actionData.name })
    return (
      <p
        role="status"
        className="mt-6 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-emerald-950"
      >
        {text}
      </p>
    )
  }
  return null
}

function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation()
  return (
    <div className="mt-6 rounded-lg border-2 border-amber-500 bg-amber-50 p-5">
      <h2 className="font-semibold text-amber-950">{t('mfa.backupCodesLabel')}</h2>
      <p className="mt-1 text-sm text-amber-950">{t('mfa.backupShowOnce')}</p>
      <ul
        aria-label={t('mfa.backupCodesLabel')}
        className="mt-3 grid grid-cols-2 gap-2 font-mono text-lg text-slate-900"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  )
}

function FactorItem({
  factor,
  setup,
}: {
  factor: PublicFactor
  setup: { secret: string; qr: { path: string; size: number } } | undefined
}) {
  const { t, i18n } = useTranslation()
  const { sent, smsMinutes } = useLoaderData<typeof loader>()
  const date = (value: Date | string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(value))
  const verified = factor.status === 'verified'
  const codeSent = sent.factorId === factor.id && sent.challengeId ? sent.challengeId : null
  return (
    <li className="rounded-lg border border-slate-200 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold text-slate-900">{factor.friendlyName}</h3>
        <span
          className={`rounded-full px-2 py-0.5 text-sm font-medium ${verified ? 'bg-emerald-100 text-emerald-900' : 'bg-amber-100 text-amber-950'}`}
        >
          {t(`mfa.status.${factor.status}`)}
        </span>
      </div>
      <p className="text-sm text-slate-700">
        {t(`mfa.types.${factor.type}`)}
        {factor.phone ? ` · ${factor.phone}` : ''} · {t('mfa.addedOn', { date: date(factor.createdAt) })}
        {factor.lastUsedAt ? ` · ${t('mfa.lastUsed', { date: date(factor.lastUsedAt) })}` : ''}
      </p>

      {!verified && setup ? (
        <div className="mt-4 space-y-3">
          <p className="font-medium text-slate-900">{t('mfa.finishSetup', { name: factor.friendlyName })}</p>
          <p className="text-sm text-slate-700">{t('mfa.scanQr')}</p>
          <svg
            role="img"
            aria-label={t('mfa.qrLabel', { name: factor.friendlyName })}
            viewBox={`0 0 ${setup.qr.size} ${setup.qr.size}`}
            className="h-48 w-48 bg-white"
            shapeRendering="crispEdges"
          >
            <path d={setup.qr.path} fill="#000" />
          </svg>
          <p className="text-sm text-slate-700">
            {t('mfa.secretLabel')}:{' '}
            <code
              className="break-all rounded bg-slate-100 px-1 font-mono text-slate-900"
              data-testid="totp-secret"
            >
              {setup.secret.match(/.{1,4}/g)?.join(' ')}
            </code>
          </p>
          <ConfirmForm factor={factor} challengeId={null} />
        </div>
      ) : null}

      {!verified && factor.type === 'phone' ? (
        <div className="mt-4 space-y-3">
          {codeSent ? (
            <>
              <p role="status" className="text-sm text-slate-700">
                {t('mfa.codeSent', { phone: factor.phone, minutes: smsMinutes })}
              </p>
              <ConfirmForm factor={factor} challengeId={codeSent} />
            </>
          ) : (
            <Form method="post">
              <input type="hidden" name="factorId" value={factor.id} />
              <ErrorFor intent="send-sms" factorId={factor.id} />
              <IntentButton intent="send-sms" label={t('mfa.sendCode')} secondary />
            </Form>
          )}
        </div>
      ) : null}

      <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="factorId" value={factor.id} />
        <input type="hidden" name="name" value={factor.friendlyName} />
        {verified ? (
          <div className="min-w-56 flex-1">
            <PasswordField
              intent="remove"
              id={`remove-${factor.id}`}
              factorId={factor.id}
              hint={t('mfa.removeConfirm', { name: factor.friendlyName })}
            />
          </div>
        ) : null}
        <IntentButton intent="remove" label={verified ? t('mfa.remove') : t('mfa.cancelSetup')} secondary />
      </Form>
    </li>
  )
}

function ConfirmForm({ factor, challengeId }: { factor: PublicFactor; challengeId: string | null }) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const error =
    actionData && !actionData.ok && actionData.intent === 'confirm' && actionData.factorId === factor.id
      ? t(`mfa.errors.${actionData.error}`)
      : null
  const id = `confirm-${factor.id}`
  return (
    <Form method="post" className="space-y-3">
      <input type="hidden" name="factorId" value={factor.id} />
      <input type="hidden" name="name" value={factor.friendlyName} />
      {challengeId ? <input type="hidden" name="challengeId" value={challengeId} /> : null}
      <CodeField id={id} error={error} narrow />
      <div className="flex flex-wrap gap-3">
        <IntentButton intent="confirm" label={t('mfa.confirm')} />
        {challengeId ? (
          <IntentButton intent="send-sms" label={t('mfa.resendCode')} secondary skipValidation />
        ) : null}
      </div>
    </Form>
  )
}

function Card({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 p-5">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      <p className="mt-1 mb-4 text-sm text-slate-700">{text}</p>
      {children}
    </div>
  )
}

/** The translated error of the last action, when it was this form's. */
function useFieldError(intent: string, field: string | null, factorId: string | null = null) {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  if (!actionData || actionData.ok || actionData.intent !== intent) return null
  if (factorId && actionData.factorId !== factorId) return null
  // An error about one field shows next to it; any other shows next to the form's first field.
  if (actionData.field && field && actionData.field !== field) return null
  return t(`mfa.errors.${actionData.error}`)
}

function TextField({
  intent,
  name,
  label,
  hint,
  type = 'text',
  autoComplete = 'off',
}: {
  intent: string
  name: string
  label: string
  hint: string
  type?: string
  autoComplete?: string
}) {
  const actionData = useActionData<typeof action>()
  // Errors without a field (a taken name) belong to the name.
  const fieldOfError = actionData && !actionData.ok ? (actionData.field ?? 'friendlyName') : null
  const error = useFieldError(intent, name)
  return (
    <FormField
      id={`${intent}-${name}`}
      label={label}
      hint={hint}
      error={fieldOfError === name ? error : null}
    >
      {(control) => (
        <input
          {...control}
          name={name}
          type={type}
          autoComplete={autoComplete}
          required
          maxLength={80}
          className={inputClass}
        />
      )}
    </FormField>
  )
}

function PasswordField({
  intent,
  id,
  factorId = null,
  hint,
}: {
  intent: string
  id: string
  factorId?: string | null
  hint?: string
}) {
  const { t } = useTranslation()
  const error = useFieldError(intent, null, factorId)
  return (
    <FormField id={id} label={t('mfa.password')} hint={hint ?? null} error={error}>
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
  )
}

function ErrorFor({ intent, factorId }: { intent: string; factorId: string }) {
  const error = useFieldError(intent, null, factorId)
  return error ? (
    <p role="alert" className="mb-2 text-sm font-medium text-red-800">
      {error}
    </p>
  ) : null
}
