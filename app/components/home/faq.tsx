import { ChevronDown } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'

const QUESTIONS = [
  'fees',
  'storage',
  'delivery',
  'lost',
  'customs',
  'payment',
  'countries',
  'consolidation',
  'howToOrder',
] as const

/**
 * The nine questions as an accordion of <details> elements: keyboard and screen-reader friendly
 * by the platform, and open without JavaScript. Figures come from the settings.
 */
export function Faq({ values }: { values: { fee: string; tax: string; days: number; methods: string } }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="faq-heading" className="bg-slate-50">
      <div className="mx-auto max-w-3xl px-4 py-12">
        <h2 id="faq-heading" className="text-2xl font-bold text-slate-900">
          {t('home.faq.heading')}
        </h2>
        <div className="mt-6 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {QUESTIONS.map((question) => (
            <details key={question} className="group">
              <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-4 px-5 py-3 font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
                <h3>{t(`home.faq.${question}.q`)}</h3>
                <ChevronDown
                  aria-hidden="true"
                  className="size-5 shrink-0 transition-transform group-open:rotate-180"
                />
              </summary>
              <p className="px-5 pb-4 text-slate-700">{t(`home.faq.${question}.a`, values)}</p>
            </details>
          ))}
        </div>
        <p className="mt-4">
          <Link to="/prohibited-items" className="font-semibold text-red-800 underline">
            {t('home.prohibited')}
          </Link>
        </p>
      </div>
    </section>
  )
}

/** The FAQ as plain question → answer pairs, for structured data. */
export const FAQ_QUESTIONS = QUESTIONS
