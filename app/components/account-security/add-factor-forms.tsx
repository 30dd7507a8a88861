import { getFormProps } from '@conform-to/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { useFormError } from '#app/components/error-text.ts'
import { IntentButton } from '#app/components/mfa-fields.tsx'
import { FormIdInput, TextField } from './fields.tsx'
import { useSecurityForm } from './security-form.ts'

/** Adding an authenticator app or a phone. */
export function AddFactorForms() {
  const { t } = useTranslation()
  return (
    <div className="mt-8 grid gap-6 md:grid-cols-2">
      <Card title={t('mfa.addTotpHeading')} text={t('mfa.addTotpText')}>
        <AddTotpForm />
      </Card>
      <Card title={t('mfa.addPhoneHeading')} text={t('mfa.addPhoneText')}>
        <AddPhoneForm />
      </Card>
    </div>
  )
}

function AddTotpForm() {
  const { t } = useTranslation()
  const [form, fields] = useSecurityForm('add-totp')
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <FormIdInput formId={form.id} />
      <TextField
        field={fields.friendlyName ?? { id: 'add-totp-friendlyName', name: 'friendlyName' }}
        label={t('mfa.friendlyName')}
        hint={t('mfa.friendlyNameHint')}
        formError={useFormError(form)}
      />
      <IntentButton intent="add-totp" label={t('mfa.addTotp')} />
    </Form>
  )
}

function AddPhoneForm() {
  const { t } = useTranslation()
  const [form, fields] = useSecurityForm('add-phone')
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <FormIdInput formId={form.id} />
      <TextField
        field={fields.friendlyName ?? { id: 'add-phone-friendlyName', name: 'friendlyName' }}
        label={t('mfa.friendlyName')}
        hint={t('mfa.friendlyNameHint')}
        // A failure without a field (a name already taken, a text that could not go out) shows here.
        formError={useFormError(form)}
      />
      <TextField
        field={fields.phone ?? { id: 'add-phone-phone', name: 'phone' }}
        label={t('mfa.phone')}
        hint={t('mfa.phoneHint')}
        type="tel"
        autoComplete="tel"
      />
      <IntentButton intent="add-phone" label={t('mfa.addPhone')} />
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
