import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData } from 'react-router'
import { z } from 'zod'
import { AccountSection } from '#app/components/customer/account-section.tsx'
import { AddressCard } from '#app/components/customer/address-card.tsx'
import { useProfileFieldError } from '#app/components/customer/field-errors.ts'
import { errorText } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { callAuth } from '#app/lib/auth-client.server.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext, getUser } from '#app/middleware/auth.server.ts'
import { DeleteAccountSchema } from '#core/accounts/account-schemas.ts'
import { hasPasswordSignIn } from '#core/accounts/reauthentication.ts'
import { formatPhone } from '#core/customers/address-rules.ts'
import { countryName } from '#core/customers/countries.ts'
import { AddressIdSchema, PROFILE_LIMITS, ProfileSchema } from '#core/customers/profile-schemas.ts'
import {
  getProfile,
  listAddresses,
  setDefaultAddress,
  updateProfile,
} from '#core/customers/profile-service.ts'
import { LANGUAGES } from '#core/preferences/preferences.ts'
import type { Route } from './+types/profile.ts'

// The profile tab: the customer's details (name, phone, the language of our e-mails), their
// address book (adding, editing and deleting have their own pages under ./address-*.tsx; "make
// default" is a button here), and the account (security, download my data, delete the account).
// Every form is a plain post with an `intent`; each success comes back here with ?done=….

export async function loader({ context }: Route.LoaderArgs) {
  const service = getServiceContext(context)
  const { language } = context.get(requestContext)
  const [profile, addresses, hasPassword] = await Promise.all([
    getProfile(service),
    listAddresses(service),
    // Whether deleting the account asks for the password or, without one, for a ticked
    // confirmation: one query for the signed-in user, not a second session read through
    // better-auth's /list-accounts.
    hasPasswordSignIn(service.db, getUser(context).id),
  ])
  return {
    profile,
    addresses: addresses.map((address) => ({
      ...address,
      phone: formatPhone(address.phone),
      countryName: countryName(address.country, language),
    })),
    canAdd: addresses.length < PROFILE_LIMITS.addresses,
    hasPassword,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  // A body that is not a form reads as an empty one: refused (400).
  const formData = await request.formData().catch(() => new FormData())
  const intent = formData.get('intent')
  if (intent === 'delete-account') return deleteAccountAction(formData, request, context)
  if (intent === 'default') return makeDefaultAction(formData, context)
  return saveProfileAction(formData, context)
}

const done = (context: Route.ActionArgs['context'], notice: 'profileSaved' | 'defaultAddressChanged') =>
  redirectWithNotice(context, '/user-dashboard/profile', notice)

async function saveProfileAction(formData: FormData, context: Route.ActionArgs['context']) {
  const submission = parseSubmission(formData, { schema: ProfileSchema })
  if (submission.status !== 'success')
    return data({ form: 'profile' as const, result: submission.reply() }, { status: 400 })
  try {
    await updateProfile(getServiceContext(context), submission.value)
  } catch (error) {
    return formFailure(error, submission, { form: 'profile' as const })
  }
  return done(context, 'profileSaved')
}

async function makeDefaultAction(formData: FormData, context: Route.ActionArgs['context']) {
  const submission = parseSubmission(formData, { schema: AddressIdSchema })
  if (submission.status !== 'success') {
    return data(
      {
        form: 'default' as const,
        result: submission.reply({ formErrors: ['errors.reasons.addressNotFound'] }),
      },
      { status: 400 },
    )
  }
  try {
    await setDefaultAddress(getServiceContext(context), submission.value.id)
  } catch (error) {
    return formFailure(error, submission, { form: 'default' as const })
  }
  return done(context, 'defaultAddressChanged')
}

/** Deleting the account asks for the password again (or, without one, a fresh session and a confirmation). */
async function deleteAccountAction(
  formData: FormData,
  request: Request,
  context: Route.ActionArgs['context'],
) {
  const submission = parseSubmission(formData, { schema: DeleteAccountSchema })
  if (submission.status !== 'success')
    return data({ form: 'delete' as const, result: submission.reply() }, { status: 400 })
  const { password, confirm } = submission.value
  try {
    const deleted = await callAuth(
      context,
      request,
      { method: 'POST', path: '/delete-user', body: { password, confirm: confirm === 'on' } },
      z.looseObject({ success: z.boolean() }),
    )
    return redirectWithNotice(context, '/', 'accountDeleted', { setCookies: deleted.setCookies })
  } catch (error) {
    return formFailure(error, submission, { form: 'delete' as const })
  }
}

export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('Retry-After')
  return { 'Cache-Control': 'private, no-store', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) }
}

export default function ProfileRoute() {
  const { t } = useTranslation()
  const { addresses, canAdd, hasPassword } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [defaultForm] = useForm({
    id: 'make-default',
    lastResult: actionData?.form === 'default' ? actionData.result : undefined,
  })
  const defaultError = errorText(t, defaultForm.errors?.[0])
  return (
    <div className="space-y-12">
      <PageMeta title={t('profile.title')} description={t('profile.lead')} />
      <header>
        <h1 className="text-3xl font-bold text-slate-900">{t('profile.title')}</h1>
        <p className="mt-2 max-w-3xl text-slate-700">{t('profile.lead')}</p>
      </header>

      <ProfileForm />

      <section aria-labelledby="addresses-heading" className="space-y-4">
        <h2 id="addresses-heading" className="text-2xl font-bold text-slate-900">
          {t('profile.addressesHeading')}
        </h2>
        <p className="max-w-3xl text-slate-700">{t('profile.addressesLead')}</p>
        <FormAlert id={defaultForm.errorId}>{defaultError}</FormAlert>
        {addresses.length === 0 ? (
          <p className="text-slate-700">{t('profile.noAddresses')}</p>
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {addresses.map((address) => (
              <li key={address.id}>
                <AddressCard address={address} />
              </li>
            ))}
          </ul>
        )}
        {canAdd ? (
          <p>
            <Link
              to="/user-dashboard/profile/addresses/new"
              className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
            >
              {t('profile.addAddress')}
            </Link>
          </p>
        ) : (
          <p className="text-slate-700">{t('profile.addressLimit')}</p>
        )}
      </section>

      <AccountSection
        hasPassword={hasPassword}
        deleteResult={actionData?.form === 'delete' ? actionData.result : undefined}
      />
    </div>
  )
}

function ProfileForm() {
  const { t } = useTranslation()
  const { profile } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const fieldError = useProfileFieldError()
  const [form, fields] = useForm({
    id: 'profile',
    lastResult: actionData?.form === 'profile' ? actionData.result : undefined,
    defaultValue: {
      name: profile.name,
      phone: profile.phone ? formatPhone(profile.phone) : '',
      language: profile.language,
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: ProfileSchema }),
  })
  const formError = errorText(t, form.errors?.[0])
  return (
    <section aria-labelledby="details-heading" className="space-y-4">
      <h2 id="details-heading" className="text-2xl font-bold text-slate-900">
        {t('profile.detailsHeading')}
      </h2>
      <Form method="post" {...getFormProps(form)} className="max-w-xl space-y-5">
        <input type="hidden" name="intent" value="profile" />
        <FormAlert id={form.errorId}>{formError}</FormAlert>
        <FormField
          id={fields.name.id}
          label={t('profile.name')}
          error={fieldError(fields.name.errors, 'name')}
        >
          {(control) => (
            <input
              {...getInputProps(fields.name, { type: 'text', ariaAttributes: false })}
              {...control}
              required
              maxLength={PROFILE_LIMITS.name}
              autoComplete="name"
              className={inputClass}
            />
          )}
        </FormField>
        {/* Not a field: the sign-in address is changed nowhere on this page. */}
        <div className="space-y-1">
          <p className="text-sm font-medium text-slate-800">{t('profile.email')}</p>
          <p className="break-all text-slate-900">{profile.email}</p>
          <p className="text-xs text-slate-600">{t('profile.emailHint')}</p>
        </div>
        <FormField
          id={fields.phone.id}
          label={t('profile.phone')}
          hint={t('profile.phoneHint')}
          error={fieldError(fields.phone.errors, 'phone')}
        >
          {(control) => (
            <input
              {...getInputProps(fields.phone, { type: 'tel', ariaAttributes: false })}
              {...control}
              maxLength={PROFILE_LIMITS.phone}
              autoComplete="tel"
              className={inputClass}
            />
          )}
        </FormField>
        <FormField
          id={fields.language.id}
          label={t('profile.language')}
          hint={t('profile.languageHint')}
          error={fieldError(fields.language.errors)}
        >
          {(control) => (
            <select
              {...getSelectProps(fields.language, { ariaAttributes: false })}
              {...control}
              className={inputClass}
            >
              {LANGUAGES.map((language) => (
                <option key={language} value={language} lang={language}>
                  {t(`language.${language}`)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <button
          type="submit"
          className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {t('profile.save')}
        </button>
      </Form>
    </section>
  )
}
