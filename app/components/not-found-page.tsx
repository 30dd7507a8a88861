import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PageMeta } from './page-meta.tsx'

export function NotFoundPage() {
  const { t } = useTranslation()
  return (
    <section className="mx-auto max-w-3xl px-4 py-20 text-center">
      <PageMeta title={t('notFound.title')} description={t('notFound.heading')} />
      <p className="text-6xl font-bold text-red-800">{t('notFound.code')}</p>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t('notFound.heading')}</h1>
      <p className="mt-8">
        <Link
          to="/"
          className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-4"
        >
          {t('notFound.backHome')}
        </Link>
      </p>
    </section>
  )
}
