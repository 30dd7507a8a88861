import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'

export default function EmailVerificationRoute() {
  const { t } = useTranslation()
  return (
    <section className="mx-auto max-w-xl px-4 py-20 text-center">
      <PageMeta title={t('auth.verifiedHeading')} description={t('auth.verifiedText')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('auth.verifiedHeading')}</h1>
      <p className="mt-3 text-slate-700">{t('auth.verifiedText')}</p>
      <p className="mt-8">
        <Link
          to="/"
          className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {t('auth.continue')}
        </Link>
      </p>
    </section>
  )
}
