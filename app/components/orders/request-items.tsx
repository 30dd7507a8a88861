import type { Key, ReactNode } from 'react'

/** A photo as a page shows it: its address (the page's own area) and its alternative text. */
export type ItemPhoto = { src: string; alt: string; width: number; height: number }

/** The thumbnail's largest side, in CSS pixels. */
const THUMBNAIL_EDGE = 160

/**
 * A request's items, for the customer's and the staff's request pages: each item's link (opened in
 * a new tab, no referrer) and its URL, and the customer's photo of it when there is one (a
 * thumbnail that links to the whole photo); the page words the link and the details under it.
 */
export function RequestItems<Item extends { id: Key; url: string }>({
  heading,
  items,
  linkLabel,
  details,
  photo,
}: {
  heading: string
  items: readonly Item[]
  linkLabel: (item: Item) => string
  details: (item: Item) => ReactNode
  photo?: (item: Item) => ItemPhoto | null
}) {
  return (
    <section aria-labelledby="items-heading">
      <h2 id="items-heading" className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      <ol className="mt-3 space-y-3">
        {items.map((item) => {
          const image = photo?.(item) ?? null
          return (
            <li
              key={item.id}
              className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 sm:flex-row sm:items-start"
            >
              <div className="min-w-0 flex-1">
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
              </div>
              {image ? <Thumbnail photo={image} /> : null}
            </li>
          )
        })}
      </ol>
    </section>
  )
}

/** The photo at thumbnail size, its box reserved before it loads (width and height set). */
function Thumbnail({ photo }: { photo: ItemPhoto }) {
  const scale = Math.min(1, THUMBNAIL_EDGE / Math.max(photo.width, photo.height, 1))
  return (
    <a href={photo.src} className="shrink-0 self-start rounded-md focus-visible:outline-2">
      <img
        src={photo.src}
        alt={photo.alt}
        width={Math.max(1, Math.round(photo.width * scale))}
        height={Math.max(1, Math.round(photo.height * scale))}
        loading="lazy"
        decoding="async"
        className="rounded-md border border-slate-200 bg-slate-50"
      />
    </a>
  )
}
