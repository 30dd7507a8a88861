import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime } from '#app/lib/dates.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { SITE_PAGE_PATHS } from '#core/site-pages/site-page-text.ts'
import { listSitePages } from '#core/site-pages/site-pages-service.ts'
import type { Route } from './+types/site-pages.ts'

// The public pages admins write (ADR 038): what we cannot buy or ship, and the seller
// disclosure. Admins only, as the settings.

export async function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestContext)
  const pages = await listSitePages(getServiceContext(context))
  const format = japanDateTime(language)
  return {
    pages: pages.map((page) => ({
      slug: page.slug,
      title: page.title[language],
      path: SITE_PAGE_PATHS[page.slug],
      updatedLabel: page.updatedAt ? format(page.updatedAt) : null,
    })),
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function SitePagesRoute() {
  const { t } = useTranslation()
  const { pages } = useLoaderData<typeof loader>()
  return (
    <section className="max-w-4xl">
      <PageMeta title={t('adminPages.title')} description={t('adminPages.lead')} />
      <h1 className="text-3xl font-bold text-slate-900">{t('adminPages.title')}</h1>
      <p className="mt-3 text-slate-700">{t('adminPages.lead')}</p>
      <ul className="mt-8 space-y-3">
        {pages.map((page) => (
          <li key={page.slug} className="rounded-lg border border-slate-200 p-4">
            <h2 className="text-lg font-semibold text-slate-900">{page.title}</h2>
            <p className="mt-1 text-sm text-slate-700">
              {page.updatedLabel
                ? t('adminPages.updated', { date: page.updatedLabel })
                : t('adminPages.seeded')}
            </p>
            <p className="mt-3 flex flex-wrap gap-4">
              <Link
                to={`/admin-dashboard/pages/${page.slug}`}
                aria-label={t('adminPages.editLabel', { title: page.title })}
                className="inline-flex min-h-11 items-center rounded-md bg-red-800 px-4 font-semibold text-white hover:bg-red-900"
              >
                {t('adminPages.edit')}
              </Link>
              <Link
                to={page.path}
                className="inline-flex min-h-11 items-center font-semibold text-red-800 underline"
              >
                {t('adminPages.view', { path: page.path })}
              </Link>
            </p>
          </li>
        ))}
      </ul>
    </section>
  )
}
