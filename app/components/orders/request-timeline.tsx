import type { Key, ReactNode } from 'react'

/**
 * A request's history, oldest first, for the customer's and the staff's request pages: each
 * event's name, then its detail (the page decides: when, and for staff who acted).
 */
export function RequestTimeline<Event extends { id: Key }>({
  headingId,
  heading,
  events,
  eventLabel,
  detail,
}: {
  headingId: string
  heading: string
  events: readonly Event[]
  eventLabel: (event: Event) => string
  detail: (event: Event) => ReactNode
}) {
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      <ol className="mt-3 space-y-2 border-l-2 border-slate-300 pl-4">
        {events.map((event) => (
          <li key={event.id}>
            <span className="font-semibold text-slate-900">{eventLabel(event)}</span>{' '}
            <span className="text-sm text-slate-700">{detail(event)}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}
