import { MapPin } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'

export type AddressCardData = {
  id: string
  fullName: string
  street: string
  city: string
  region: string
  postalCode: string
  countryName: string
  phone: string
  isDefault: boolean
}

/** The lines of an address as a label reads: recipient, street, city, region and postal code, country. */
export function AddressLines({ address }: { address: AddressCardData }) {
  const { t } = useTranslation()
  const place = [address.city, address.region, address.postalCode].filter(Boolean).join(', ')
  return (
    <address className="not-italic leading-relaxed text-slate-800">
      <span className="block font-semibold text-slate-900">{address.fullName}</span>
      <span className="block break-words">{address.street}</span>
      <span className="block break-words">{place}</span>
      <span className="block">{address.countryName}</span>
      <span className="block">{t('profile.phoneLine', { phone: address.phone })}</span>
    </address>
  )
}

/**
 * One address of the book: its lines, "Default address" on the default one, and its actions
 * (make default: a post; edit and delete: their own pages, delete asks first). The buttons' names
 * say which address they are about.
 */
export function AddressCard({ address }: { address: AddressCardData }) {
  const { t } = useTranslation()
  const which = { name: address.fullName, city: address.city }
  const buttonClass =
    'inline-flex min-h-11 items-center rounded-md border border-slate-400 px-3 text-sm font-semibold text-slate-900 hover:bg-slate-50'
  return (
    <article
      data-testid="address"
      className={`flex h-full flex-col gap-4 rounded-lg border p-4 ${
        address.isDefault ? 'border-red-300 bg-red-50/40' : 'border-slate-200'
      }`}
    >
      <div className="flex items-start gap-3">
        <MapPin aria-hidden="true" className="mt-1 size-5 shrink-0 text-slate-600" />
        <div className="min-w-0 flex-1">
          {address.isDefault ? (
            <p className="mb-2 inline-block rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold text-white">
              {t('profile.defaultBadge')}
            </p>
          ) : null}
          <AddressLines address={address} />
        </div>
      </div>
      <div className="mt-auto flex flex-wrap gap-2">
        {address.isDefault ? null : (
          <Form method="post" action="/user-dashboard/profile">
            <input type="hidden" name="intent" value="default" />
            <input type="hidden" name="id" value={address.id} />
            <button type="submit" aria-label={t('profile.makeDefaultLabel', which)} className={buttonClass}>
              {t('profile.makeDefault')}
            </button>
          </Form>
        )}
        <Link
          to={`/user-dashboard/profile/addresses/${address.id}`}
          aria-label={t('profile.editLabel', which)}
          className={buttonClass}
        >
          {t('profile.edit')}
        </Link>
        <Link
          to={`/user-dashboard/profile/addresses/${address.id}/delete`}
          aria-label={t('profile.deleteLabel', which)}
          className={`${buttonClass} border-red-300 text-red-800 hover:bg-red-50`}
        >
          {t('profile.delete')}
        </Link>
      </div>
    </article>
  )
}
