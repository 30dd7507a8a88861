import { useTranslation } from 'react-i18next'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'

export default function StoreGuideRoute() {
  const { t } = useTranslation()
  return (
    <>
      <PageMeta title={t('storeGuide.title')} description={t('storeGuide.description')} />
      <PageIntro heading={t('storeGuide.heading')} lead={t('storeGuide.lead')} />
    </>
  )
}
