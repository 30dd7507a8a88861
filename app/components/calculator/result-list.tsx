import type { ReactNode } from 'react'

/** Label–value rows of a result; the last one (the total) stands out. */
export function ResultList({ rows }: { rows: { label: string; value: ReactNode; emphasis?: boolean }[] }) {
  return (
    <dl className="divide-y divide-slate-200 rounded-md border border-slate-200">
      {rows.map((row) => (
        <div
          key={row.label}
          className={`flex items-baseline justify-between gap-4 px-4 py-2 ${row.emphasis ? 'bg-slate-50 font-bold' : ''}`}
        >
          <dt className="text-sm text-slate-700">{row.label}</dt>
          <dd className="text-right text-slate-900">{row.value}</dd>
        </div>
      ))}
    </dl>
  )
}
