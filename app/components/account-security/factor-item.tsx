import { getFormProps } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { useFormError } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { CodeField, IntentButton } from '#app/components/mfa-fields.tsx'
import { FormIdInput, PasswordField } from './fields.tsx'
import { type SecurityFactor, useSecurityForm } from './security-form.ts'

export type TotpSetupView = { secret: string; qr: { path: string; size: number } }

/** One factor: its name, type and dates; finishing its set-up; removing it. */
export function FactorItem({
  factor,
  setup,
  codeSent,
  smsMinutes,
}: {
  factor: SecurityFactor
  setup: TotpSetupView | undefined
  /** The challenge whose SMS just went out to this phone, if any. */
  codeSent: string | null
  smsMinutes: number
}) {
  const { t, i18n } = useTranslation()
  const date = (value: Date | string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(value))
  const verified = factor.status === 'verified'
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

      {!verified && setup ? <TotpSetup factor={factor} setup={setup} /> : null}

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
            <SendCodeForm factor={factor} />
          )}
        </div>
      ) : null}

      <RemoveForm factor={factor} />
    </li>
  )
}

function TotpSetup({ factor, setup }: { factor: SecurityFactor; setup: TotpSetupView }) {
  const { t } = useTranslation()
  return (
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
  )
}

/** The first code of a factor being set up (or a phone's texted code); "send again" for phones. */
function ConfirmForm({ factor, challengeId }: { factor: SecurityFactor; challengeId: string | null }) {
  const { t } = useTranslation()
  const [form, fields] = useSecurityForm(`confirm-${factor.id}`)
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <FormIdInput formId={form.id} />
      <input type="hidden" name="factorId" value={factor.id} />
      <input type="hidden" name="name" value={factor.friendlyName} />
      {challengeId ? <input type="hidden" name="challengeId" value={challengeId} /> : null}
      <CodeField
        field={fields.code ?? { id: `confirm-${factor.id}-code`, name: 'code' }}
        formError={useFormError(form)}
        narrow
      />
      <div className="flex flex-wrap gap-3">
        <IntentButton intent="confirm" label={t('mfa.confirm')} />
        {challengeId ? (
          <IntentButton intent="send-sms" label={t('mfa.resendCode')} secondary skipValidation />
        ) : null}
      </div>
    </Form>
  )
}

function SendCodeForm({ factor }: { factor: SecurityFactor }) {
  const { t } = useTranslation()
  const [form] = useSecurityForm(`send-${factor.id}`)
  return (
    <Form method="post" {...getFormProps(form)}>
      <FormIdInput formId={form.id} />
      <input type="hidden" name="factorId" value={factor.id} />
      <div className="mb-2">
        <FormAlert id={form.errorId} className="text-sm">
          {useFormError(form)}
        </FormAlert>
      </div>
      <IntentButton intent="send-sms" label={t('mfa.sendCode')} secondary />
    </Form>
  )
}

/** Removing a factor: a verified one asks for the password again. */
function RemoveForm({ factor }: { factor: SecurityFactor }) {
  const { t } = useTranslation()
  const [form, fields] = useSecurityForm(`remove-${factor.id}`)
  const formError = useFormError(form)
  const verified = factor.status === 'verified'
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-wrap items-end gap-3">
      <FormIdInput formId={form.id} />
      <input type="hidden" name="factorId" value={factor.id} />
      <input type="hidden" name="name" value={factor.friendlyName} />
      {verified ? (
        <div className="min-w-56 flex-1">
          <PasswordField
            field={fields.password ?? { id: `remove-${factor.id}-password`, name: 'password' }}
            formError={formError}
            hint={t('mfa.removeConfirm', { name: factor.friendlyName })}
          />
        </div>
      ) : (
        <FormAlert id={form.errorId} className="text-sm">
          {formError}
        </FormAlert>
      )}
      <IntentButton intent="remove" label={verified ? t('mfa.remove') : t('mfa.cancelSetup')} secondary />
    </Form>
  )
}
