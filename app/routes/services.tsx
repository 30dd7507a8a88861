import { Check, Cpu, Package, Plane, Shirt, ShoppingBag, Sparkles, Sprout } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { PricingSummary } from '#app/components/pricing-summary.tsx'
import { documentPage } from '#app/lib/page-kind.ts'
import { useRootData } from '#app/lib/root-data.ts'
import { areas } from '#app/locales/areas.ts'

const OVERVIEW = ['s1', 's2', 's3'] as const
const CARDS = [
  { key: 'shopping', Icon: ShoppingBag },
  { key: 'consolidation', Icon: Package },
  { key: 'shipping', Icon: Plane },
] as const
const CATEGORIES = [
  { key: 'anime', Icon: Sparkles },
  { key: 'fashion', Icon: Shirt },
  { key: 'electronics', Icon: Cpu },
  { key: 'traditional', Icon: Sprout },
] as const

export const handle = { ...areas('public'), ...documentPage }

export default function ServicesRoute() {
  const { t } = useTranslation()
  const days = useRootData()?.settings.freeStorageDays ?? 0
  return (
    <>
      <PageMeta title={t('services.title')} description={t('services.description')} />
      <PageIntro heading={t('services.heading')} lead={t('services.lead')} />
      <section aria-labelledby="overview-heading" className="mx-auto max-w-6xl px-4 py-10">
        <h2 id="overview-heading" className="text-2xl font-bold text-slate-900">
          {t('services.overview.heading')}
        </h2>
        <ol className="mt-6 grid gap-6 md:grid-cols-3">
          {OVERVIEW.map((step, index) => (
            <li key={step} className="flex gap-4">
              <span
                aria-hidden="true"
                className="flex size-10 shrink-0 items-center justify-center rounded-full bg-red-700 text-lg font-bold text-white"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">{t(`services.overview.${step}.title`)}</h3>
                <p className="text-sm text-slate-700">{t(`services.overview.${step}.text`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="cards-heading" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="cards-heading" className="text-2xl font-bold text-slate-900">
            {t('services.cards.heading')}
          </h2>
          <ul className="mt-6 grid gap-6 md:grid-cols-3">
            {CARDS.map(({ key, Icon }) => (
              <li key={key} className="rounded-lg border border-slate-200 bg-white p-6">
                <Icon aria-hidden="true" className="size-8 text-red-700" />
                <h3 className="mt-3 text-lg font-semibold text-slate-900">
                  {t(`services.cards.${key}.title`)}
                </h3>
                <ul className="mt-3 space-y-2">
                  {(['b1', 'b2', 'b3'] as const).map((benefit) => (
                    <li key={benefit} className="flex gap-2 text-sm text-slate-700">
                      <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700" />
                      {t(`services.cards.${key}.${benefit}`, { days })}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section aria-labelledby="categories-heading" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="categories-heading" className="text-2xl font-bold text-slate-900">
          {t('services.categories.heading')}
        </h2>
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {CATEGORIES.map(({ key, Icon }) => (
            <li key={key} className="rounded-lg border border-slate-200 p-5">
              <Icon aria-hidden="true" className="size-7 text-red-700" />
              <h3 className="mt-2 font-semibold text-slate-900">{t(`services.categories.${key}.title`)}</h3>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
                {(['i1', 'i2', 'i3', 'i4'] as const).map((item) => (
                  <li key={item}>{t(`services.categories.${key}.${item}`)}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>
      <PricingSummary />
    </>
  )
}
