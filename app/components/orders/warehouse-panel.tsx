import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { FormAlert } from '#app/components/form-alert.tsx'

/**
 * The warehouse on a staff request page (docs/decisions/027): mark the items bought at the shop,
 * book a parcel in (its own page: photos), and the packages already at the office with their
 * shelf, items' weights and photos (thumbnails linking to the full photo). The page decides what
 * this staff member may do; the server checks again.
 */

export type PanelPackage = {
  id: string
  number: string
  shelf: string
  conditionNote: string | null
  arrivedLabel: string
  items: { id: string; position: number; weightLabel: string }[]
  photos: { id: string; position: number; width: number; height: number }[]
}

export function WarehousePanel({
  requestId,
  version,
  toBuy,
  canMarkOrdered,
  canBook,
  packages,
  error,
  unavailable,
}: {
  requestId: string
  version: number
  toBuy: number
  canMarkOrdered: boolean
  canBook: boolean
  packages: readonly PanelPackage[]
  error: string | null
  /** Items an admin may mark unavailable (the shop could not supply them): refunded. */
  unavailable: readonly { id: string; position: number; label: string }[]
}) {
  const { t } = useTranslation()
  if (!canMarkOrdered && !canBook && packages.length === 0 && unavailable.length === 0) return null
  return (
    <section aria-labelledby="warehouse-heading" className="space-y-4 rounded-lg border border-slate-200 p-4">
      <h2 id="warehouse-heading" className="text-xl font-semibold text-slate-900">
        {t('arrival.heading')}
      </h2>
      {canMarkOrdered || canBook ? <p className="text-slate-700">{t('arrival.lead')}</p> : null}
      <FormAlert>{error}</FormAlert>
      <div className="flex flex-wrap items-center gap-3">
        {canMarkOrdered ? (
          <Form method="post">
            <input type="hidden" name="intent" value="mark_ordered" />
            <input type="hidden" name="version" value={version} />
            <button
              type="submit"
              className="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
            >
              {t('arrival.markOrdered', { count: toBuy })}
            </button>
          </Form>
        ) : null}
        {canBook ? (
          <Link
            to={`/admin-dashboard/requests/${requestId}/arrival`}
            className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
          >
            {t('arrival.bookLink')}
          </Link>
        ) : null}
      </div>
      {unavailable.length > 0 ? <UnavailableItems version={version} items={unavailable} /> : null}
      {packages.length > 0 ? <ArrivedPackages packages={packages} /> : null}
    </section>
  )
}

/** Items an admin may mark unavailable, each with its reason: folded away until opened. */
function UnavailableItems({
  version,
  items,
}: {
  version: number
  items: readonly { id: string; position: number; label: string }[]
}) {
  const { t } = useTranslation()
  return (
    <details className="rounded-md border border-slate-200 p-3">
      <summary className="min-h-11 cursor-pointer content-center font-semibold text-slate-900">
        {t('arrival.unavailableHeading')}
      </summary>
      <p className="mt-2 text-slate-700">{t('arrival.unavailableLead')}</p>
      <ul className="mt-3 space-y-4">
        {items.map((item) => (
          <li key={item.id}>
            <Form method="post" className="space-y-2">
              <input type="hidden" name="intent" value="mark_unavailable" />
              <input type="hidden" name="version" value={version} />
              <input type="hidden" name="itemId" value={item.id} />
              <label htmlFor={`unavailable-${item.id}`} className="block text-sm font-medium text-slate-800">
                {t('arrival.unavailableReason', { item: item.label })}
              </label>
              <input
                id={`unavailable-${item.id}`}
                name="reason"
                required
                maxLength={1000}
                className="block min-h-11 w-full rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900"
              />
              <button
                type="submit"
                className="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
              >
                {t('arrival.unavailableSubmit', { item: item.label })}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </details>
  )
}

/** The packages already at the office: shelf, date, items' weights, condition and photos. */
function ArrivedPackages({ packages }: { packages: readonly PanelPackage[] }) {
  const { t } = useTranslation()
  return (
    <>
      <h3 className="text-lg font-semibold text-slate-900">{t('arrival.packagesHeading')}</h3>
      <ul className="space-y-4">
        {packages.map((pkg) => (
          <li key={pkg.id} className="space-y-2 border-t border-slate-200 pt-3">
            <p className="font-semibold text-slate-900">
              {t('arrival.packageSummary', {
                number: pkg.number,
                shelf: pkg.shelf,
                date: pkg.arrivedLabel,
              })}
            </p>
            <ul className="text-slate-800">
              {pkg.items.map((item) => (
                <li key={item.id}>
                  {t('arrival.itemWeight', { position: item.position, weight: item.weightLabel })}
                </li>
              ))}
            </ul>
            {pkg.conditionNote ? (
              <p className="whitespace-pre-line text-slate-800">{pkg.conditionNote}</p>
            ) : null}
            <PackagePhotos number={pkg.number} photos={pkg.photos} altKey="arrival.photoAlt" />
          </li>
        ))}
      </ul>
    </>
  )
}

/** A package's photos as thumbnails, each a link to the full photo (the owner's and staff's only). */
export function PackagePhotos({
  number,
  photos,
  altKey,
}: {
  number: string
  photos: readonly { id: string; position: number; width: number; height: number }[]
  altKey: 'arrival.photoAlt' | 'shippingTab.photoAlt'
}) {
  const { t } = useTranslation()
  if (photos.length === 0) return null
  return (
    <ul className="flex flex-wrap gap-2">
      {photos.map((photo) => {
        const scale = Math.min(1, 96 / Math.max(photo.width, photo.height))
        return (
          <li key={photo.id}>
            <a
              href={`/user-dashboard/package-photos/${photo.id}`}
              className="block rounded-md focus-visible:outline-2"
            >
              <img
                src={`/user-dashboard/package-photos/${photo.id}/thumb`}
                alt={t(altKey, { position: photo.position, number })}
                width={Math.round(photo.width * scale)}
                height={Math.round(photo.height * scale)}
                loading="lazy"
                className="rounded-md border border-slate-200 object-cover"
              />
            </a>
          </li>
        )
      })}
    </ul>
  )
}
