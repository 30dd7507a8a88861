import { useTranslation } from 'react-i18next'
import { href, Link } from 'react-router'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { PricingSummary } from '#app/components/pricing-summary.tsx'

export default function HomeRoute() {
  const { t } = useTranslation()
  return (
    <>
      <PageMeta title={t('home.title')} description={t('home.description')} />
      <PageIntro heading={t('home.heading')} lead={t('home.lead')}>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link
            to={href('/store-guide')}
            className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
          >
            {t('home.ctaStoreGuide')}
          </Link>
          <Link
            to={href('/calculator')}
            className="inline-flex min-h-11 items-center rounded-md border border-slate-300 bg-white px-5 font-semibold text-slate-900 hover:bg-slate-50"
          >
            {t('home.ctaCalculator')}
          </Link>
        </div>
      </PageIntro>
      <PricingSummary />
    </>
  )
}
