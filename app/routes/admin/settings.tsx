import { type FieldMetadata, getFormProps, useForm } from '@conform-to/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { data, Form, useActionData, useLoaderData, useNavigation } from 'react-router'
import { AdminField, AdminFieldset, AdminFormAlert } from '#app/components/admin/admin-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import {
  changedFormFields,
  SETTINGS_TEXT_LIMITS as LIMITS,
  type SettingsFormFields,
  type SettingsFormOutput,
  SettingsFormSchema,
  settingsFormFields,
} from '#core/settings/settings-form.ts'
import { isAppError } from '#core/shared/errors.ts'
import type { Route } from './+types/settings.ts'

// The business's settings (admins only): fees, tax, exchange rates, storage, days to pay, the
// company, bank-transfer details and messaging links. One form, checked as a whole, saved in one
// transaction with an audit record; a save another admin's save overtook is refused (409) with
// what is saved now (core/settings/settings-service.ts `save`).

export async function loader({ context }: Route.LoaderArgs) {
  const { actor } = getServiceContext(context)
  const snapshot = await context.get(requestContext).settings.snapshot(actor)
  return { fields: settingsFormFields(snapshot.values, snapshot.version), demoKeys: snapshot.demoKeys }
}

type Fresh = { version: string; changed: Record<string, string> } | null

export async function action({ request, context }: Route.ActionArgs) {
  const services = getServiceContext(context)
  const { settings } = context.get(requestContext)
  const formData = await request.formData().catch(() => new FormData())
  const submission = parseSubmission(formData, { schema: SettingsFormSchema })
  if (submission.status !== 'success')
    return data({ result: submission.reply(), fresh: null as Fresh }, { status: 400 })
  try {
    await settings.save(services, submission.value)
    return redirectWithNotice(context, '/admin-dashboard/settings', 'settingsSaved')
  } catch (error) {
    let fresh: Fresh = null
    if (isAppError(error, 'conflict')) {
      // What is saved now: the next save goes through on purpose, and the form says what differs.
      const now = await settings.snapshot(services.actor)
      const { version, values } = submission.value
      fresh = {
        version: now.version,
        changed: changedFormFields(
          settingsFormFields(now.values, now.version),
          settingsFormFields(values, version),
        ),
      }
    }
    return formFailure(error, submission, { fresh })
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function SettingsRoute() {
  const { fields } = useLoaderData<typeof loader>()
  // A new version from a save remounts the form with the saved values.
  return <SettingsForm key={fields.version} />
}

/** The form's fields, as Conform gives them. */
type SettingsFields = ReturnType<typeof useForm<SettingsFormFields, SettingsFormOutput>>[1]

/** One field of the form, with what another admin saved meanwhile (after a conflict). */
type FieldOf = (
  meta: FieldMetadata<string>,
  label: string,
  extra?: Partial<Parameters<typeof AdminField>[0]>,
) => ReactNode

function SettingsForm() {
  const { t } = useTranslation()
  const { fields: initial, demoKeys } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const [form, fields] = useForm<SettingsFormFields, SettingsFormOutput>({
    id: 'settings',
    lastResult: actionData?.result,
    defaultValue: initial,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: SettingsFormSchema }),
  })
  const fresh = actionData?.fresh ?? null
  const version = fresh?.version ?? initial.version
  const savedNow = (path: string) => fresh?.changed[path]
  const yenRates = fields.yenRates.getFieldset()
  const messaging = fields.messaging.getFieldset()
  const formError = form.errors?.[0]
  const hasFieldErrors = Object.entries(form.allErrors).some(([name]) => name !== form.name)
  const field: FieldOf = (meta, label, extra = {}) => (
    <AdminField meta={meta} label={label} savedNow={savedNow(meta.name)} {...extra} />
  )
  return (
    <section className="max-w-4xl">
      <PageMeta title={t('adminSettings.title')} description={t('adminSettings.lead')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('adminSettings.title')}</h1>
      <p className="mt-3 text-slate-700">{t('adminSettings.lead')}</p>
      <Form method="post" {...getFormProps(form)} className="mt-8 space-y-6">
        <input type="hidden" name="version" key={version} defaultValue={version} />
        <AdminFormAlert
          conflict={
            fresh ? { title: t('adminSettings.conflictTitle'), text: t('adminSettings.conflictText') } : null
          }
          failedTitle={t('adminSettings.failed')}
          formError={formError}
          fieldErrors={hasFieldErrors && form.status === 'error'}
        />
        <PricingFieldset fields={fields} field={field} />
        <AdminFieldset legend={t('adminSettings.sections.rates')} lead={t('adminSettings.ratesLead')}>
          {field(yenRates.USD, t('adminSettings.fields.USD'), { inputMode: 'decimal' })}
          {field(yenRates.MXN, t('adminSettings.fields.MXN'), { inputMode: 'decimal' })}
          {field(yenRates.CLP, t('adminSettings.fields.CLP'), { inputMode: 'decimal' })}
          {field(fields.customsRates.getFieldset().EUR, t('adminSettings.fields.EUR'), {
            inputMode: 'decimal',
          })}
        </AdminFieldset>
        <CompanyFieldset meta={fields.company} demo={demoKeys.includes('company')} field={field} />
        <BankFieldset meta={fields.bankTransfer} demo={demoKeys.includes('bankTransfer')} field={field} />
        <AdminFieldset
          legend={t('adminSettings.sections.messaging')}
          lead={t('adminSettings.hints.links')}
          demo={demoKeys.includes('messaging')}
        >
          {field(messaging.instagram, t('adminSettings.fields.instagram'), { type: 'url', inputMode: 'url' })}
          {field(messaging.facebook, t('adminSettings.fields.facebook'), { type: 'url', inputMode: 'url' })}
          {field(messaging.whatsapp, t('adminSettings.fields.whatsapp'), { type: 'url', inputMode: 'url' })}
        </AdminFieldset>
        <AdminFieldset
          legend={t('adminSettings.sections.linkPreview')}
          lead={t('adminSettings.hints.previewHosts')}
        >
          {field(fields.previewHosts, t('adminSettings.fields.previewHosts'), { inputMode: 'url' })}
        </AdminFieldset>
        <button
          type="submit"
          disabled={navigation.state === 'submitting'}
          className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-5 font-semibold text-white hover:bg-red-900 disabled:opacity-60"
        >
          {t('adminSettings.save')}
        </button>
      </Form>
    </section>
  )
}

/** Fees, tax, storage and the days that count: the pricing section. */
function PricingFieldset({ fields, field }: { fields: SettingsFields; field: FieldOf }) {
  const { t } = useTranslation()
  return (
    <AdminFieldset legend={t('adminSettings.sections.pricing')}>
      {field(fields.serviceFeeJpy, t('adminSettings.fields.serviceFeeJpy'), {
        hint: t('adminSettings.hints.serviceFeeJpy'),
        inputMode: 'numeric',
      })}
      {field(fields.taxPercent, t('adminSettings.fields.taxPercent'), {
        hint: t('adminSettings.hints.taxPercent'),
        inputMode: 'decimal',
      })}
      {field(fields.freeStorageDays, t('adminSettings.fields.freeStorageDays'), { inputMode: 'numeric' })}
      {field(fields.storageFeePerDayJpy, t('adminSettings.fields.storageFeePerDayJpy'), {
        inputMode: 'numeric',
      })}
      {field(fields.packingAllowanceG, t('adminSettings.fields.packingAllowanceG'), {
        hint: t('adminSettings.hints.packingAllowanceG'),
        inputMode: 'numeric',
      })}
      {field(fields.storageReminderDays, t('adminSettings.fields.storageReminderDays'), {
        hint: t('adminSettings.hints.storageReminderDays'),
      })}
      {field(fields.disposalAfterDays, t('adminSettings.fields.disposalAfterDays'), {
        hint: t('adminSettings.hints.disposalAfterDays'),
        inputMode: 'numeric',
      })}
      {field(fields.claimAfterDays, t('adminSettings.fields.claimAfterDays'), {
        hint: t('adminSettings.hints.claimAfterDays'),
        inputMode: 'numeric',
      })}
      {field(fields.daysToPay, t('adminSettings.fields.daysToPay'), {
        hint: t('adminSettings.hints.daysToPay'),
        inputMode: 'numeric',
      })}
    </AdminFieldset>
  )
}

/** The company's name, e-mail, address (both languages) and tax registration. */
function CompanyFieldset({
  meta,
  demo,
  field,
}: {
  meta: SettingsFields['company']
  demo: boolean
  field: FieldOf
}) {
  const { t } = useTranslation()
  const company = meta.getFieldset()
  const address = company.address.getFieldset()
  return (
    <AdminFieldset legend={t('adminSettings.sections.company')} demo={demo}>
      {field(company.name, t('adminSettings.fields.companyName'), { max: LIMITS.companyName })}
      {field(company.email, t('adminSettings.fields.email'), { type: 'email', inputMode: 'email' })}
      {field(address.es, t('adminSettings.fields.addressEs'), {
        hint: t('adminSettings.hints.bilingual'),
        max: LIMITS.companyAddress,
        multiline: true,
      })}
      {field(address.en, t('adminSettings.fields.addressEn'), {
        max: LIMITS.companyAddress,
        multiline: true,
      })}
      {field(company.taxRegistrationId, t('adminSettings.fields.taxRegistrationId'), {
        max: LIMITS.taxRegistrationId,
      })}
    </AdminFieldset>
  )
}

/** The bank-transfer details customers pay to, and their instructions in both languages. */
function BankFieldset({
  meta,
  demo,
  field,
}: {
  meta: SettingsFields['bankTransfer']
  demo: boolean
  field: FieldOf
}) {
  const { t } = useTranslation()
  const bank = meta.getFieldset()
  const branch = bank.branch.getFieldset()
  const accountType = bank.accountType.getFieldset()
  const instructions = bank.instructions.getFieldset()
  return (
    <AdminFieldset legend={t('adminSettings.sections.bank')} demo={demo}>
      {field(bank.bankName, t('adminSettings.fields.bankName'), { max: LIMITS.bankShort })}
      {field(branch.es, t('adminSettings.fields.branchEs'), { max: LIMITS.bankShort })}
      {field(branch.en, t('adminSettings.fields.branchEn'), { max: LIMITS.bankShort })}
      {field(accountType.es, t('adminSettings.fields.accountTypeEs'), { max: LIMITS.accountType })}
      {field(accountType.en, t('adminSettings.fields.accountTypeEn'), { max: LIMITS.accountType })}
      {field(bank.accountNumber, t('adminSettings.fields.accountNumber'), { max: LIMITS.accountNumber })}
      {field(bank.accountHolder, t('adminSettings.fields.accountHolder'), { max: LIMITS.bankShort })}
      {field(bank.swift, t('adminSettings.fields.swift'), { max: LIMITS.swift })}
      {field(instructions.es, t('adminSettings.fields.instructionsEs'), {
        hint: t('adminSettings.hints.instructions'),
        max: LIMITS.instructions,
        multiline: true,
      })}
      {field(instructions.en, t('adminSettings.fields.instructionsEn'), {
        hint: t('adminSettings.hints.instructions'),
        max: LIMITS.instructions,
        multiline: true,
      })}
    </AdminFieldset>
  )
}
