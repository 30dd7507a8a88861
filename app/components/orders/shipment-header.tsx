/**
 * The head of a shipment's page, the customer's and staff's alike: its title (the page's
 * `shipment-heading`) and its status, in the reader's words.
 */
export function ShipmentHeader({
  title,
  status,
  statusTestId,
}: {
  title: string
  status: string
  statusTestId?: string
}) {
  return (
    <header className="flex flex-wrap items-center gap-3">
      <h1 id="shipment-heading" className="text-3xl font-bold text-slate-900">
        {title}
      </h1>
      <span
        data-testid={statusTestId}
        className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-900"
      >
        {status}
      </span>
    </header>
  )
}
