import type { RequestStatus } from '#core/orders/request-machine.ts'

const TONE: Record<RequestStatus, string> = {
  submitted: 'bg-amber-100 text-amber-900',
  quoted: 'bg-sky-100 text-sky-900',
  paid: 'bg-emerald-100 text-emerald-900',
  in_progress: 'bg-emerald-100 text-emerald-900',
  completed: 'bg-slate-200 text-slate-900',
  rejected: 'bg-red-100 text-red-900',
  cancelled: 'bg-slate-200 text-slate-900',
  expired: 'bg-slate-200 text-slate-900',
}

/** A request's status as words (never colour alone). */
export function StatusBadge({ status, label }: { status: RequestStatus; label: string }) {
  return (
    <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold ${TONE[status]}`}>
      {label}
    </span>
  )
}
