import { useTranslation } from 'react-i18next'
import { data, Link, useActionData, useLoaderData } from 'react-router'
import { AddressForm } from '#app/components/customer/address-form.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { formatPhone } from '#core/customers/address-rules.ts'
import { countryOptions } from '#core/customers/countries.ts'
import { AddressSchema } from '#core/customers/profile-schemas.ts'
import { getAddress, updateAddress } from '#core/customers/profile-service.ts'
import type { Route } from './+types/address-edit.ts'

// Editing one of the customer's addresses. Someone else's address, or an id that is not one,
// is "not found" (404), exactly like a deleted one.

export async function loader({ params, context }: Route.LoaderArgs) {
  const address = await getAddress(getServiceContext(context), params.id)
  return {
    address: { ...address, phone: formatPhone(address.phone) },
    countries: countryOptions(context.get(requestContext).language),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  const submission = parseSubmission(formData, { schema: AddressSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await updateAddress(getServiceContext(context), params.id, submission.value)
  } catch (error) {
    return formFailure(error, submission)
  }
  return redirectWithNotice(context, '/user-dashboard/profile', 'addressSaved')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function EditAddressRoute() {
  const { t } = useTranslation()
  const { address, countries } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { id, isDefault, ...values } = address
  return (
    <section aria-labelledby="address-heading" className="space-y-6">
      <PageMeta title={t('profile.editAddressTitle')} description={t('profile.addressesLead')} />
      <p>
        <Link to="/user-dashboard/profile" className="font-semibold text-red-800 underline">
          {t('profile.backToProfile')}
        </Link>
      </p>
      <h1 id="address-heading" className="text-3xl font-bold text-slate-900">
        {t('profile.editAddressTitle')}
      </h1>
      <AddressForm
        id={`address-${id}`}
        defaultValue={values}
        countries={countries}
        isDefault={isDefault}
        lastResult={actionData?.result}
      />
    </section>
  )
}
