import { useTranslation } from 'react-i18next'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { PricingSummary } from '#app/components/pricing-summary.tsx'

export default function ServicesRoute() {
  const { t } = useTranslation()
  return (
    <>
      <PageMeta title={t('services.title')} description={t('services.description')} />
      <PageIntro heading={t('services.heading')} lead={t('services.lead')} />
      <PricingSummary />
    </>
  )
}
