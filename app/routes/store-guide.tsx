import { ExternalLink } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Form, useLoaderData, useSubmit } from 'react-router'
import { inputClass } from '#app/components/form-field.tsx'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StoreLogo } from '#app/components/store-monogram.tsx'
import { requestContext } from '#app/context.ts'
import { documentPage } from '#app/lib/page-kind.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { areas } from '#app/locales/areas.ts'
import { parseStoreCategory, STORE_CATEGORIES } from '#core/catalog/store-categories.ts'
import type { Route } from './+types/store-guide.ts'

// The chosen category is in the URL (?category=…), so a filtered guide renders on the server
// and can be shared. An unknown category shows everything.

export const handle = { ...areas('public'), ...documentPage }

export async function loader({ request, context }: Route.LoaderArgs) {
  const { catalog, language } = context.get(requestContext)
  const category = parseStoreCategory(new URL(request.url).searchParams.get('category'))
  return { category, groups: await catalog.storeGuide({ language, category }) }
}

export default function StoreGuideRoute() {
  const { t } = useTranslation()
  const { category, groups } = useLoaderData<typeof loader>()
  const submit = useSubmit()
  const hydrated = useHydrated()
  return (
    <>
      <PageMeta
        title={t('storeGuide.title')}
        description={t('storeGuide.description')}
        keepQuery={['category']}
      />
      <PageIntro heading={t('storeGuide.heading')} lead={t('storeGuide.lead')}>
        <Form method="get" className="mt-6 flex max-w-md items-end gap-2" preventScrollReset>
          <div className="flex-1 space-y-1">
            <label htmlFor="category" className="block text-sm font-medium text-slate-800">
              {t('storeGuide.filterLabel')}
            </label>
            <select
              id="category"
              name="category"
              key={category ?? 'all'}
              defaultValue={category ?? 'all'}
              data-autosubmit
              onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
              className={inputClass}
            >
              <option value="all">{t('storeGuide.all')}</option>
              {STORE_CATEGORIES.map((option) => (
                <option key={option} value={option}>
                  {t(`storeCategories.${option}`)}
                </option>
              ))}
            </select>
          </div>
          {hydrated ? null : (
            <button
              type="submit"
              data-no-js
              className="min-h-11 rounded-md border border-slate-400 bg-white px-4 font-medium"
            >
              {t('storeGuide.apply')}
            </button>
          )}
        </Form>
      </PageIntro>
      <div className="mx-auto max-w-6xl space-y-12 px-4">
        {groups.map((group) => (
          <section key={group.category} aria-labelledby={`group-${group.category}`}>
            <div className="flex items-baseline justify-between gap-4 border-b border-slate-200 pb-2">
              <h2 id={`group-${group.category}`} className="text-2xl font-bold text-slate-900">
                {t(`storeCategories.${group.category}`)}
              </h2>
              <p className="whitespace-nowrap text-sm text-slate-600">
                {t('storeGuide.count', { count: group.stores.length })}
              </p>
            </div>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {group.stores.map((store) => (
                <li key={store.slug} className="flex gap-4 rounded-lg border border-slate-200 p-4">
                  <StoreLogo url={store.logoUrl} text={store.logoText} color={store.logoColor} />
                  <div className="min-w-0">
                    <h3 className="font-semibold">
                      <a
                        href={store.url}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="inline-flex min-h-11 items-center gap-1 text-red-800 underline underline-offset-4"
                      >
                        {store.name}
                        <ExternalLink aria-hidden="true" className="size-4" />
                        <span className="sr-only"> {t('storeGuide.opensInNewTab')}</span>
                      </a>
                    </h3>
                    <p className="text-sm text-slate-700">{store.description}</p>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  )
}
