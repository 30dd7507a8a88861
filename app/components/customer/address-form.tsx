import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { errorText } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { addressRule } from '#core/customers/address-rules.ts'
import { type AddressInput, AddressSchema, PROFILE_LIMITS } from '#core/customers/profile-schemas.ts'
import { useProfileFieldError } from './field-errors.ts'

export type AddressFormValues = {
  fullName: string
  street: string
  city: string
  region: string
  postalCode: string
  country: string
  phone: string
}

/**
 * Adding or editing an address (./routes/customer/address-new.tsx and address-edit.tsx): the
 * fields a parcel's label needs, with the browser's address autofill, and "use as my default"
 * unless it is the default already. The countries come from the server, named in the page's
 * language (core/customers/countries.ts).
 */
export function AddressForm({
  id,
  defaultValue,
  countries,
  isDefault,
  lastResult,
}: {
  id: string
  defaultValue: AddressFormValues
  countries: { code: string; name: string }[]
  isDefault: boolean
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const { t } = useTranslation()
  const fieldError = useProfileFieldError()
  const [form, fields] = useForm<AddressFormValues & { makeDefault: string }, AddressInput>({
    id,
    lastResult,
    defaultValue,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseSubmission(formData, { schema: AddressSchema }),
  })
  const formError = errorText(t, form.errors?.[0])
  // What the chosen country's post asks for (the same rules the schema checks): the labels say
  // which parts are required, the messages name the country and show an example.
  const countryCode = typeof fields.country.value === 'string' ? fields.country.value : ''
  const country = countries.find((option) => option.code === countryCode)
  const rule = addressRule(countryCode)
  const { messageValues, labels, hints } = countryWording(t, country, rule)
  const text = (
    field: (typeof fields)['fullName'],
    limit: keyof typeof PROFILE_LIMITS,
    autoComplete: string,
    options: { required?: boolean; type?: 'text' | 'tel' } = {},
  ) => {
    const name = field.name as keyof AddressFormValues
    return (
      <FormField
        id={field.id}
        label={labels[name] ?? t(`profile.${name === 'phone' ? 'addressPhone' : (name as 'city')}`)}
        hint={hints[name] ?? null}
        error={fieldError(field.errors, limit, messageValues)}
      >
        {(control) => (
          <input
            {...getInputProps(field, { type: options.type ?? 'text', ariaAttributes: false })}
            {...control}
            required={options.required ?? true}
            maxLength={PROFILE_LIMITS[limit]}
            autoComplete={autoComplete}
            className={inputClass}
          />
        )}
      </FormField>
    )
  }
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-xl space-y-5">
      <FormAlert id={form.errorId}>{formError}</FormAlert>
      {text(fields.fullName, 'addressName', 'shipping name')}
      <CountrySelect field={fields.country} countries={countries} error={fieldError(fields.country.errors)} />
      {text(fields.street, 'street', 'shipping address-line1')}
      {text(fields.city, 'city', 'shipping address-level2')}
      {text(fields.region, 'region', 'shipping address-level1', { required: rule.regionRequired })}
      {text(fields.postalCode, 'postalCode', 'shipping postal-code', { required: rule.postalRequired })}
      {text(fields.phone, 'phone', 'shipping tel', { type: 'tel' })}
      <AddressFormFooter isDefault={isDefault} makeDefault={fields.makeDefault} />
    </Form>
  )
}

type Country = { code: string; name: string }

/** The labels, hints and message values that depend on the chosen country's rule. */
function countryWording(t: TFunction, country: Country | undefined, rule: ReturnType<typeof addressRule>) {
  const messageValues = {
    country: country?.name ?? '',
    example: rule.example ?? '',
    regionExample: rule.regionExample ?? '',
  }
  const labels: Partial<Record<keyof AddressFormValues, string>> = {
    region: !country
      ? t('profile.region')
      : rule.regionRequired
        ? t(`profile.regionKinds.${rule.regionKind}`)
        : t('profile.optional', { label: t(`profile.regionKinds.${rule.regionKind}`) }),
    postalCode: !country
      ? t('profile.postalCode')
      : rule.postalRequired
        ? t('profile.postalCodeRequired')
        : t('profile.optional', { label: t('profile.postalCodeRequired') }),
  }
  const hints: Partial<Record<keyof AddressFormValues, string | null>> = {
    phone: t('profile.addressPhoneHint'),
    postalCode: rule.example ? t('profile.postalCodeExample', { example: rule.example }) : null,
    region: rule.regionExample ? t('profile.regionExample', { example: rule.regionExample }) : null,
  }
  return { messageValues, labels, hints }
}

/** The country list, named in the page's language, with the browser's autofill. */
function CountrySelect({
  field,
  countries,
  error,
}: {
  field: FieldMetadata<string>
  countries: Country[]
  error: string | null
}) {
  const { t } = useTranslation()
  return (
    <FormField id={field.id} label={t('profile.country')} error={error}>
      {(control) => (
        <select
          {...getSelectProps(field, { ariaAttributes: false })}
          {...control}
          required
          autoComplete="shipping country"
          className={inputClass}
        >
          <option value="">{t('profile.chooseCountry')}</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
      )}
    </FormField>
  )
}

/** "Use as my default" (or that it is the default already), then save and cancel. */
function AddressFormFooter({
  isDefault,
  makeDefault,
}: {
  isDefault: boolean
  makeDefault: FieldMetadata<string>
}) {
  const { t } = useTranslation()
  return (
    <>
      {isDefault ? (
        <p className="text-slate-800">{t('profile.isDefaultNote')}</p>
      ) : (
        <label className="flex min-h-11 items-center gap-3 text-slate-900">
          <input {...getInputProps(makeDefault, { type: 'checkbox' })} className="h-5 w-5" />
          {t('profile.makeDefaultCheckbox')}
        </label>
      )}
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {t('profile.saveAddress')}
        </button>
        <Link
          to="/user-dashboard/profile"
          className="inline-flex min-h-11 items-center rounded-md border border-slate-400 px-4 font-semibold text-slate-900 hover:bg-slate-50"
        >
          {t('profile.cancel')}
        </Link>
      </div>
    </>
  )
}
