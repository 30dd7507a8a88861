import { useTranslation } from 'react-i18next'

/** The carrier, the tracking number and where to follow it, written out for the page. */
export type TrackingData = {
  carrierName: string
  number: string
  url: string
  shippedLabel: string
  deliveredLabel: string | null
}

/** Where the parcel is: on both shipment pages once it has been handed to the carrier. */
export function ShipmentTracking({ tracking }: { tracking: TrackingData }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="tracking-heading" className="space-y-2 rounded-lg border border-slate-300 p-4">
      <h2 id="tracking-heading" className="text-xl font-semibold text-slate-900">
        {t('shipments.trackingHeading')}
      </h2>
      <p className="text-slate-800">
        {t('shipments.trackingLine', { carrier: tracking.carrierName })}{' '}
        <span className="font-mono font-semibold" data-testid="tracking-number">
          {tracking.number}
        </span>
      </p>
      <p className="text-slate-800">{t('shipments.shippedOn', { date: tracking.shippedLabel })}</p>
      {tracking.deliveredLabel ? (
        <p className="font-semibold text-emerald-900">
          {t('shipments.deliveredOn', { date: tracking.deliveredLabel })}
        </p>
      ) : null}
      <p>
        <a
          href={tracking.url}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex min-h-11 items-center font-semibold text-red-800 underline"
        >
          {t('shipments.follow', { carrier: tracking.carrierName })}
        </a>
      </p>
    </section>
  )
}
