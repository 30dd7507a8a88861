import { useTranslation } from 'react-i18next'
import { data, Link, useActionData, useLoaderData } from 'react-router'
import { AddressForm } from '#app/components/customer/address-form.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { countryOptions } from '#core/customers/countries.ts'
import { AddressSchema, PROFILE_LIMITS } from '#core/customers/profile-schemas.ts'
import { createAddress, listAddresses } from '#core/customers/profile-service.ts'
import type { Route } from './+types/address-new.ts'

// A new address for the customer's address book (the profile tab). At the limit (10) the page
// says so instead of showing a form that would be refused.

export async function loader({ context }: Route.LoaderArgs) {
  const existing = await listAddresses(getServiceContext(context))
  return {
    countries: countryOptions(context.get(requestContext).language),
    first: existing.length === 0,
    full: existing.length >= PROFILE_LIMITS.addresses,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  const submission = parseSubmission(formData, { schema: AddressSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await createAddress(getServiceContext(context), submission.value)
  } catch (error) {
    return formFailure(error, submission)
  }
  return redirectWithNotice(context, '/user-dashboard/profile', 'addressAdded')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function NewAddressRoute() {
  const { t } = useTranslation()
  const { countries, first, full } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <section aria-labelledby="address-heading" className="space-y-6">
      <PageMeta title={t('profile.newAddressTitle')} description={t('profile.addressesLead')} />
      <p>
        <Link to="/user-dashboard/profile" className="font-semibold text-red-800 underline">
          {t('profile.backToProfile')}
        </Link>
      </p>
      <h1 id="address-heading" className="text-3xl font-bold text-slate-900">
        {t('profile.newAddressTitle')}
      </h1>
      {full ? (
        <p className="text-slate-700">{t('profile.addressLimit')}</p>
      ) : (
        <AddressForm
          id="new-address"
          defaultValue={{
            fullName: '',
            street: '',
            city: '',
            region: '',
            postalCode: '',
            country: '',
            phone: '',
          }}
          countries={countries}
          // The first address becomes the default by itself.
          isDefault={first}
          lastResult={actionData?.result}
        />
      )}
    </section>
  )
}
