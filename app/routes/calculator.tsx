import { useTranslation } from 'react-i18next'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { PricingSummary } from '#app/components/pricing-summary.tsx'

export default function CalculatorRoute() {
  const { t } = useTranslation()
  return (
    <>
      <PageMeta title={t('calculator.title')} description={t('calculator.description')} />
      <PageIntro heading={t('calculator.heading')} lead={t('calculator.lead')}>
        <p className="mt-4 max-w-2xl text-sm text-slate-700">{t('calculator.disclaimer')}</p>
      </PageIntro>
      <PricingSummary />
    </>
  )
}
