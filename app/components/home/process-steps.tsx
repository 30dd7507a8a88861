import { useTranslation } from 'react-i18next'

const STEPS = ['s1', 's2', 's3', 's4', 's5', 's6', 's7'] as const

/** The seven-step process as a timeline. */
export function ProcessSteps({ methods }: { methods: string }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="steps-heading" className="mx-auto max-w-6xl px-4 py-12">
      <h2 id="steps-heading" className="text-2xl font-bold text-slate-900">
        {t('home.steps.heading')}
      </h2>
      <ol className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-4">
        {STEPS.map((step, index) => (
          <li key={step} className="relative rounded-lg border border-slate-200 p-5 pt-8">
            <span
              aria-hidden="true"
              className="absolute -top-4 left-5 flex size-8 items-center justify-center rounded-full bg-red-700 font-bold text-white"
            >
              {index + 1}
            </span>
            <h3 className="font-semibold text-slate-900">{t(`home.steps.${step}.title`)}</h3>
            <p className="mt-1 text-sm text-slate-700">{t(`home.steps.${step}.text`, { methods })}</p>
          </li>
        ))}
      </ol>
    </section>
  )
}
