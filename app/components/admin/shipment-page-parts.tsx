import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { ConfirmSubmit } from '#app/components/confirm-submit.tsx'
import { errorTextIn } from '#app/components/error-text.ts'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { PackedBox } from '#app/components/orders/packed-box.tsx'
import { RequestTimeline } from '#app/components/orders/request-timeline.tsx'
import { ShipmentAddressBlock } from '#app/components/orders/shipment-address.tsx'
import type { loader } from '#app/routes/admin/shipment.tsx'
import { CANCEL_REASON_MAX } from '#core/shipping/shipment-schemas.ts'

// The parts of the staff's shipment page (app/routes/admin/shipment.tsx): who and where to, the
// items and where each sits, the packed box, the cancel form and the history.

type PageData = Awaited<ReturnType<typeof loader>>
type ShipmentData = PageData['shipment']

/** The customer (linking to their page) and the address it goes to. */
export function ShipmentPeople({ shipment }: { shipment: Pick<ShipmentData, 'customer' | 'address'> }) {
  const { t } = useTranslation()
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <section aria-labelledby="customer-heading">
        <h2 id="customer-heading" className="text-xl font-semibold text-slate-900">
          {t('staffShipments.customerHeading')}
        </h2>
        {shipment.customer ? (
          <p className="mt-2 break-all text-slate-800">
            <Link to={`/admin-dashboard/users/${shipment.customer.id}`} className="underline">
              {shipment.customer.name}
            </Link>
            <br />
            {shipment.customer.email}
          </p>
        ) : null}
      </section>
      <ShipmentAddressBlock
        headingId="address-heading"
        heading={t('staffShipments.addressHeading')}
        address={shipment.address}
      />
    </div>
  )
}

/** What to pack: each item, its request, and where it sits (weight, package and shelf). */
export function ShipmentItems({ lines }: { lines: ShipmentData['lines'] }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="items-heading">
      <h2 id="items-heading" className="text-xl font-semibold text-slate-900">
        {t('staffShipments.itemsHeading')}
      </h2>
      <ul className="mt-2 space-y-2 text-slate-800">
        {lines.map((line) => (
          <li key={line.id}>
            <Link to={`/admin-dashboard/requests/${line.requestId}`} className="font-semibold underline">
              {t('staffShipments.itemLine', {
                request: line.requestNumber,
                position: line.position,
                title: line.title ?? line.shopHost,
              })}
            </Link>
            <br />
            {t('staffShipments.itemPlace', {
              weight: line.weight,
              package: line.packageNumber ?? '',
              shelf: line.shelf ?? '',
            })}
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The packed box for staff: with the rate table's price, and why another was charged. */
export function StaffPackedBox({ box }: { box: NonNullable<PageData['box']> }) {
  const { t } = useTranslation()
  return (
    <PackedBox
      box={box}
      heading={t('staffShipments.packedHeading')}
      receiptText={t('staffShipments.receiptLink', { number: box.receipt?.number ?? '' })}
    >
      {box.ratePrice ? (
        <p className="text-slate-700">{t('staffShipments.ratePrice', { price: box.ratePrice })}</p>
      ) : null}
      {box.priceReason ? (
        <p className="font-medium text-amber-950">
          {t('staffShipments.priceOverride', { price: box.price, reason: box.priceReason })}
        </p>
      ) : null}
    </PackedBox>
  )
}

/** Staff cancel the shipment with a reason the customer reads, confirmed (and its receipt voided). */
export function CancelShipmentForm({
  shipment,
  receipt,
  errors,
}: {
  shipment: Pick<ShipmentData, 'number' | 'status' | 'version'>
  receipt: PageData['costs']['receipt']
  errors: Record<string, string[] | undefined> | null
}) {
  const { t } = useTranslation()
  return (
    <Form method="post" className="space-y-3 rounded-lg border border-slate-200 p-4">
      <h2 className="text-lg font-semibold text-slate-900">{t('staffShipments.cancelHeading')}</h2>
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="version" value={shipment.version} />
      <p id="cancel-hint" className="text-slate-700">
        {t('staffShipments.cancelHint')}
      </p>
      <FormField
        id="cancel-reason"
        label={t('staffShipments.cancelReason')}
        error={errorTextIn(t, 'staffShipments.packErrors', errors?.reason?.[0])}
      >
        {(control) => (
          <textarea
            {...control}
            name="reason"
            rows={2}
            required
            maxLength={CANCEL_REASON_MAX}
            className={`${inputClass} py-2`}
          />
        )}
      </FormField>
      <ConfirmSubmit
        question={
          shipment.status === 'packed' && receipt
            ? t('staffShipments.cancelQuestionReceipt', {
                number: shipment.number,
                invoice: receipt.number,
                amount: receipt.toPay ?? receipt.total,
              })
            : t('staffShipments.cancelQuestion', { number: shipment.number })
        }
        confirmLabel={t('staffShipments.cancelConfirm', { number: shipment.number })}
        submitLabel={t('staffShipments.cancel')}
        error={errors?.confirm?.[0] ? t('confirmAction.required') : null}
        describedBy="cancel-hint"
        submitClassName="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
      />
    </Form>
  )
}

/** The shipment's history, each event with its note. */
export function ShipmentHistory({ events }: { events: ShipmentData['events'] }) {
  const { t } = useTranslation()
  return (
    <RequestTimeline
      headingId="shipment-history"
      heading={t('staffShipments.history')}
      events={events}
      eventLabel={(event) => t(`staffShipments.events.${event.event as 'request'}`)}
      detail={(event) => (event.note ? `${event.createdLabel} · ${event.note}` : event.createdLabel)}
    />
  )
}
