import type { LucideIcon } from 'lucide-react'

/** A headed grid of short features, each with an icon, a title and a sentence. */
export function FeatureGrid({
  id,
  heading,
  items,
  tinted = false,
}: {
  id: string
  heading: string
  items: { key: string; title: string; text: string; Icon: LucideIcon }[]
  tinted?: boolean
}) {
  return (
    <section aria-labelledby={id} className={tinted ? 'bg-slate-50' : ''}>
      <div className="mx-auto max-w-6xl px-4 py-12">
        <h2 id={id} className="text-2xl font-bold text-slate-900">
          {heading}
        </h2>
        <ul
          className={`mt-6 grid gap-6 sm:grid-cols-2 ${items.length === 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3'}`}
        >
          {items.map(({ key, title, text, Icon }) => (
            <li key={key} className="rounded-lg border border-slate-200 bg-white p-5">
              <Icon aria-hidden="true" className="size-7 text-red-700" />
              <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
              <p className="mt-1 text-sm text-slate-700">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
