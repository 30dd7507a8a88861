import type { ShipmentAddress } from '#db/schema/shipments.ts'

/** A shipment's address as it was when asked (the customer's and the staff's shipment pages). */
export function ShipmentAddressBlock({
  headingId,
  heading,
  address,
}: {
  headingId: string
  heading: string
  address: ShipmentAddress & { countryName: string }
}) {
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      <address className="mt-2 whitespace-pre-line text-slate-800 not-italic">
        {[
          address.fullName,
          address.street,
          [address.city, address.region, address.postalCode].filter(Boolean).join(', '),
          address.countryName,
          address.phone,
        ].join('\n')}
      </address>
    </section>
  )
}
