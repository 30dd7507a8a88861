import type { ReactNode } from 'react'

export function PageIntro({
  heading,
  lead,
  children,
}: {
  heading: string
  lead: string
  children?: ReactNode
}) {
  return (
    <section className="bg-gradient-to-b from-red-50 to-white">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
        <h1 className="max-w-3xl text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{heading}</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">{lead}</p>
        {children}
      </div>
    </section>
  )
}
