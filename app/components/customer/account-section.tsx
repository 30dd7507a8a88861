import type { SubmissionResult } from '@conform-to/react'
import { getFormProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { SecurityLink } from '#app/components/security-link.tsx'

/**
 * The account under the profile: security (second factors), download my data, delete the account.
 * Deleting posts `intent=delete-account` to the profile page's action, which asks better-auth (the
 * password again, or without one a fresh session and the ticked confirmation).
 */
export function AccountSection({
  hasPassword,
  deleteResult,
}: {
  hasPassword: boolean
  deleteResult: SubmissionResult<string[]> | undefined
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="account-heading" className="space-y-6">
      <h2 id="account-heading" className="text-2xl font-bold text-slate-900">
        {t('profile.accountHeading')}
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
      <DeleteAccountForm hasPassword={hasPassword} lastResult={deleteResult} />
    </section>
  )
}

function DeleteAccountForm({
  hasPassword,
  lastResult,
}: {
  hasPassword: boolean
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm<{ password: string; confirm: string }>({ id: 'delete-account', lastResult })
  // A refusal from the server (wrong password, stale session) is a form error, a locale key;
  // the schema's own problems are field errors under `auth.errors`.
  const formError = errorText(t, form.errors?.[0])
  const fieldError = errorTextIn(t, 'auth.errors', fields.password.errors?.[0])
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3 rounded-lg border border-red-200 p-5">
      <input type="hidden" name="intent" value="delete-account" />
      <h3 className="font-semibold text-red-900">{t('account.deleteTitle')}</h3>
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
