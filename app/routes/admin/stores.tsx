import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { errorText } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { StoreLogo } from '#app/components/store-monogram.tsx'
import { requestContext } from '#app/context.ts'
import { refusalOf } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import type { NoticeName } from '#app/lib/notice.ts'
import { getServiceContext } from '#app/middleware/auth.server.ts'
import { listStoresForEditing, moveStore, setStoreHidden } from '#core/catalog/store-editor.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Route } from './+types/stores.ts'

// The store guide editor's list (admins only; docs/decisions/026-store-guide-editor.md): every
// store, hidden ones too, in the guide's order; hide or show one, move it up or down, open it to
// edit. Plain forms (post/redirect/get), so it works without JavaScript.

export async function loader({ context }: Route.LoaderArgs) {
  const stores = await listStoresForEditing(getServiceContext(context))
  return { stores }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const INTENTS = { hide: 'storeHidden', show: 'storeShown', up: 'storeMoved', down: 'storeMoved' } as const

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  const ctx = getServiceContext(context)
  const intent = String(formData.get('intent') ?? '')
  const storeId = String(formData.get('storeId') ?? '')
  try {
    if (!(intent in INTENTS) || !/^\d{1,9}$/.test(storeId)) {
      throw new AppError('invalid', `Store list action ${intent.slice(0, 20)} on ${storeId.slice(0, 20)}`)
    }
    const id = Number(storeId)
    if (intent === 'hide' || intent === 'show') await setStoreHidden(ctx, id, intent === 'hide')
    else await moveStore(ctx, id, intent === 'up' ? 'up' : 'down')
    context.get(requestContext).catalog.changed()
    const flash: NoticeName = INTENTS[intent as keyof typeof INTENTS]
    return redirectWithNotice(context, `/admin-dashboard/stores#store-${id}`, flash)
  } catch (caught) {
    const refusal = refusalOf(caught)
    return data({ storeId, messageKey: refusal.messageKey }, refusal.init)
  }
}

export default function StoresRoute() {
  const { t } = useTranslation()
  const { stores } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const button =
    'min-h-11 rounded-md border border-slate-400 bg-white px-3 text-sm font-medium text-slate-900 disabled:opacity-60'
  return (
    <section aria-labelledby="stores-heading">
      <PageMeta title={t('adminStores.title')} description={t('adminStores.lead')} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="stores-heading" className="text-3xl font-bold text-slate-900">
            {t('adminStores.title')}
          </h1>
          <p className="mt-2 max-w-3xl text-slate-700">{t('adminStores.lead')}</p>
        </div>
        <Link
          to="/admin-dashboard/stores/new"
          className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-4 font-semibold text-white"
        >
          {t('adminStores.add')}
        </Link>
      </div>
      {failed ? (
        <FormAlert look="box" className="mt-6 p-4">
          {errorText(t, failed.messageKey)}
        </FormAlert>
      ) : null}
      <p className="mt-6 text-sm text-slate-700">{t('adminStores.count', { count: stores.length })}</p>
      <ol className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {stores.map((store, index) => (
          <li
            key={store.id}
            id={`store-${store.id}`}
            className="flex flex-wrap items-center gap-4 p-4"
            aria-labelledby={`store-name-${store.id}`}
          >
            <StoreLogo url={store.logoUrl} text={store.logoText} color={store.logoColor} />
            <div className="min-w-48 flex-1">
              <p className="font-semibold text-slate-900">
                <span className="mr-2 text-sm text-slate-600">{index + 1}.</span>
                <Link
                  id={`store-name-${store.id}`}
                  to={`/admin-dashboard/stores/${store.id}`}
                  className="text-red-800 underline underline-offset-4"
                >
                  {store.name}
                </Link>
                {store.hidden ? (
                  <span className="ml-2 rounded bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800">
                    {t('adminStores.hiddenBadge')}
                  </span>
                ) : null}
              </p>
              <p className="mt-1 text-sm text-slate-700">
                {store.categories.map((category) => t(`storeCategories.${category}`)).join(' · ')}
              </p>
            </div>
            <Form method="post" className="flex flex-wrap gap-2">
              <input type="hidden" name="storeId" value={store.id} />
              <button
                type="submit"
                name="intent"
                value="up"
                disabled={busy || index === 0}
                className={button}
              >
                <span aria-hidden="true">↑</span>
                <span className="sr-only">{t('adminStores.moveUp', { name: store.name })}</span>
              </button>
              <button
                type="submit"
                name="intent"
                value="down"
                disabled={busy || index === stores.length - 1}
                className={button}
              >
                <span aria-hidden="true">↓</span>
                <span className="sr-only">{t('adminStores.moveDown', { name: store.name })}</span>
              </button>
              <button
                type="submit"
                name="intent"
                value={store.hidden ? 'show' : 'hide'}
                disabled={busy}
                className={button}
              >
                {t(store.hidden ? 'adminStores.show' : 'adminStores.hide')}
                <span className="sr-only"> {store.name}</span>
              </button>
            </Form>
          </li>
        ))}
      </ol>
    </section>
  )
}
