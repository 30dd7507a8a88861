import { getFormProps, useForm } from '@conform-to/react'
import { useTranslation } from 'react-i18next'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { AddressLines } from '#app/components/customer/address-card.tsx'
import { errorText } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { parseSubmission } from '#app/lib/form-submission.ts'
import { formFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { formatPhone } from '#core/customers/address-rules.ts'
import { countryName } from '#core/customers/countries.ts'
import { AddressIdSchema } from '#core/customers/profile-schemas.ts'
import { deleteAddress, getAddress } from '#core/customers/profile-service.ts'
import type { Route } from './+types/address-delete.ts'

// "Delete this address?": the address, and a button that deletes it (a post) or a link that
// keeps it. A page of its own, so the confirmation works without JavaScript.

export async function loader({ params, context }: Route.LoaderArgs) {
  const address = await getAddress(getServiceContext(context), params.id)
  return {
    address: {
      ...address,
      phone: formatPhone(address.phone),
      countryName: countryName(address.country, context.get(requestContext).language),
    },
  }
}

export async function action({ params, context }: Route.ActionArgs) {
  const formData = new FormData()
  formData.set('id', params.id)
  const submission = parseSubmission(formData, { schema: AddressIdSchema })
  try {
    // A malformed id is "not found" in the service, like any other.
    await deleteAddress(getServiceContext(context), params.id)
  } catch (error) {
    return formFailure(error, submission)
  }
  return redirectWithNotice(context, '/user-dashboard/profile', 'addressDeleted')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function DeleteAddressRoute() {
  const { t } = useTranslation()
  const { address } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form] = useForm({ id: 'delete-address', lastResult: actionData?.result })
  const formError = errorText(t, form.errors?.[0])
  return (
    <section aria-labelledby="delete-heading" className="max-w-xl space-y-6">
      <PageMeta title={t('profile.deleteTitle')} description={t('profile.deleteText')} />
      <h1 id="delete-heading" className="text-3xl font-bold text-slate-900">
        {t('profile.deleteTitle')}
      </h1>
      <div className="rounded-lg border border-slate-200 p-4">
        <AddressLines address={address} />
      </div>
      <p className="text-slate-800">{t('profile.deleteText')}</p>
      {address.isDefault ? <p className="text-slate-800">{t('profile.deleteDefaultText')}</p> : null}
      <FormAlert id={form.errorId}>{formError}</FormAlert>
      <Form method="post" {...getFormProps(form)} className="flex flex-wrap gap-3">
        <button
          type="submit"
          className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {t('profile.deleteConfirm')}
        </button>
        <Link
          to="/user-dashboard/profile"
          className="inline-flex min-h-11 items-center rounded-md border border-slate-400 px-4 font-semibold text-slate-900 hover:bg-slate-50"
        >
          {t('profile.keep')}
        </Link>
      </Form>
    </section>
  )
}
