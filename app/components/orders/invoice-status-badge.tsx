import type { InvoiceStatus } from '#core/billing/invoice-machine.ts'

const TONE: Record<InvoiceStatus, string> = {
  open: 'bg-sky-100 text-sky-900',
  paid: 'bg-emerald-100 text-emerald-900',
  void: 'bg-slate-200 text-slate-900',
  expired: 'bg-slate-200 text-slate-900',
}

/** An invoice's status as words (never colour alone), for receipts and invoice lists. */
export function InvoiceStatusBadge({ status, label }: { status: InvoiceStatus; label: string }) {
  return (
    <span
      className={`inline-block rounded-full px-3 py-1 text-sm font-semibold print:border print:border-slate-500 ${TONE[status]}`}
    >
      {label}
    </span>
  )
}
