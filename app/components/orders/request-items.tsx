import type { Key, ReactNode } from 'react'

/**
 * A request's items, for the customer's and the staff's request pages: each item's link (opened in
 * a new tab, no referrer) and its URL; the page words the link and the details under it.
 */
export function RequestItems<Item extends { id: Key; url: string }>({
  heading,
  items,
  linkLabel,
  details,
}: {
  heading: string
  items: readonly Item[]
  linkLabel: (item: Item) => string
  details: (item: Item) => ReactNode
}) {
  return (
    <section aria-labelledby="items-heading">
      <h2 id="items-heading" className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      <ol className="mt-3 space-y-3">
        {items.map((item) => (
          <li key={item.id} className="rounded-lg border border-slate-200 p-4">
            <a
              href={item.url}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="font-semibold text-red-800 underline"
            >
              {linkLabel(item)}
            </a>
            <p className="mt-1 break-all text-sm text-slate-700">{item.url}</p>
            {details(item)}
          </li>
        ))}
      </ol>
    </section>
  )
}
