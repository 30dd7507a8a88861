import { type ReactNode, useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useNavigation,
  useRevalidator,
} from 'react-router'
import { errorText } from '#app/components/error-text.ts'
import { bellAudience, countMyUnread } from '#core/notifications/notification-service.ts'
import { hasThirdParty } from '#core/preferences/third-party.ts'
import { inLanguage } from '#core/settings/bilingual.ts'
import type { Route } from './+types/root.ts'
import stylesheet from './app.css?url'
import { ConsentBanner } from './components/consent/consent-banner.tsx'
import {
  InlineStyle,
  PageScript,
  SpeculationRules,
  useDocumentAssets,
  ViewTransitions,
} from './components/document-scripts.tsx'
import { GuardPage, guardFailureOf } from './components/guard-page.tsx'
import { SiteFooter } from './components/layout/site-footer.tsx'
import { SiteHeader } from './components/layout/site-header.tsx'
import { useNonce } from './components/nonce.tsx'
import { NotFoundPage } from './components/not-found-page.tsx'
import { NoticeToast } from './components/notice-toast.tsx'
import { JsonLd, PageMeta } from './components/page-meta.tsx'
import { requestContext } from './context.ts'
import { useAreaStrings } from './i18n.ts'
import { publicErrorFrom } from './lib/http-errors.ts'
import { shownNotice } from './lib/notice.server.ts'
import { isDocumentPage } from './lib/page-kind.ts'
import { useRootData } from './lib/root-data.ts'
import { getSessionUser } from './lib/session.server.ts'
import { bundlesFor } from './locales/areas.ts'

const FAVICON = '/favicon.svg'

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: FAVICON, type: 'image/svg+xml' },
]

/**
 * A failure's Retry-After (429, 503: app/lib/http-errors.ts) reaches the page's response: the
 * error boundary here renders every thrown failure, so its headers arrive at this route.
 */
export const headers: Route.HeadersFunction = ({ errorHeaders }) => {
  const retryAfter = errorHeaders?.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : new Headers()
}

/**
 * The signed-in visitor, and their unread notifications for the header: one indexed count, only
 * for someone signed in (anonymous pages, the cached ones, cost no query: server/page-cache.ts).
 * Staff's bell counts the staff's list (docs/decisions/036).
 */
async function sessionAndUnread(context: Route.LoaderArgs['context'], request: Request) {
  const user = await getSessionUser(context, request)
  if (!user) return { user, unreadNotifications: 0 }
  const { db } = context.get(requestContext)
  const actor = { id: user.id, role: user.role }
  const unreadNotifications = await countMyUnread({ db, actor }, bellAudience(actor))
  return { user, unreadNotifications }
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { settings, language, currency, thirdParty, consent, appUrl, flash, orders } =
    context.get(requestContext)
  const [values, demoKeys, { user, unreadNotifications }] = await Promise.all([
    settings.get(),
    settings.demoKeys(),
    sessionAndUnread(context, request),
  ])
  return {
    language,
    currency,
    appUrl,
    user: user ? { name: user.name, email: user.email, role: user.role } : null,
    unreadNotifications,
    // The last change's notice, in the visitor's language (app/lib/notice.ts).
    notice: shownNotice(flash, language),
    year: new Date().getFullYear(),
    settings: {
      // The address in the reader's language (ADR 038).
      company: { ...values.company, address: inLanguage(values.company.address, language) },
      messaging: values.messaging,
      serviceFeeJpy: values.serviceFeeJpy,
      taxRate: values.taxRate,
      yenRates: values.yenRates,
      freeStorageDays: values.freeStorageDays,
      // The calculator prices storage past the free days (docs/decisions/037).
      storageFeePerDayJpy: values.storageFeePerDayJpy,
      // The shops whose links the request form reads (issue 31): no call for another link.
      previewHosts: values.previewHosts,
    },
    demo: { company: demoKeys.includes('company'), messaging: demoKeys.includes('messaging') },
    // The methods the public pages name (ADR 038): a bank transfer always, these when configured.
    payments: {
      card: orders.payments.some((provider) => provider.name === 'stripe'),
      paypal: orders.payments.some((provider) => provider.name === 'paypal'),
    },
    thirdParty: {
      configured: hasThirdParty(thirdParty),
      consent,
      reviewsWidgetId: thirdParty.reviewsWidgetId,
      instagramWidgetId: thirdParty.instagramWidgetId,
      scriptUrl: thirdParty.scriptUrl,
    },
  }
}

export function Layout({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation()
  const nonce = useNonce()
  const matches = useMatches()
  useAreaStrings(matches)
  // A document page loads no framework JavaScript (app/lib/page-kind.ts): the server leaves
  // React Router's scripts out and inlines the stylesheet. Only the server knows the build
  // (`documents`): in the browser this renders after hydration (an app page, or a client
  // navigation from one into a document route) and React Router stays as it is.
  const assets = useDocumentAssets()
  const documentPage = assets.documents && isDocumentPage(matches)
  const css = documentPage ? assets.stylesheetText(stylesheet) : null
  // Lets tests (and anyone debugging) know client-side behaviour is live, on error pages too.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return (
    <html
      lang={i18n.language}
      dir={i18n.dir(i18n.language)}
      data-i18n-bundles={bundlesFor(matches).join(' ')}
      data-page={documentPage ? 'document' : undefined}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <PageScript nonce={nonce} />
        <ViewTransitions nonce={nonce} />
        <Meta />
        {documentPage && css !== null ? (
          <>
            <InlineStyle css={css} nonce={nonce} />
            <link rel="icon" href={FAVICON} type="image/svg+xml" />
          </>
        ) : (
          <Links nonce={nonce} />
        )}
      </head>
      <body className="flex min-h-screen flex-col bg-white text-slate-900 antialiased">
        {children}
        {documentPage ? (
          <SpeculationRules nonce={nonce} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  )
}

function Shell({ children }: { children: ReactNode }) {
  const data = useRootData()
  if (!data) return <main id="main">{children}</main>
  const { company, messaging } = data.settings
  return (
    <>
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Organization',
          name: company.name,
          url: data.appUrl,
          email: company.email,
          address: { '@type': 'PostalAddress', addressLocality: 'Osaka', addressCountry: 'JP' },
          sameAs: [messaging.instagram, messaging.facebook],
        }}
      />
      <SiteHeader
        brand={data.settings.company.name}
        currency={data.currency}
        user={data.user}
        unreadNotifications={data.unreadNotifications}
      />
      <main id="main" className="flex-1">
        {children}
      </main>
      <SiteFooter
        company={data.settings.company}
        isDemoCompany={data.demo.company}
        year={data.year}
        showConsentSettings={data.thirdParty.configured}
      />
      {data.thirdParty.configured && data.thirdParty.consent === null ? <ConsentBanner /> : null}
      <NoticeToast notice={data.notice} />
    </>
  )
}

export default function App() {
  const data = useLoaderData<typeof loader>()
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const signedIn = data.user !== null
  // A sign-out (or a role change) in another tab shows here as soon as this tab gets focus: the
  // loaders run again and the session is read anew. Not while a navigation or a form is under
  // way: it loads fresh data anyway, and a revalidation would abort its loader request after the
  // server had taken the one-shot notice from the flash cookie, so the notice would be lost.
  useEffect(() => {
    if (!signedIn || busy) return
    const onFocus = () => revalidator.revalidate()
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [signedIn, busy, revalidator])
  return (
    <Shell>
      <Outlet />
    </Shell>
  )
}

/**
 * The one error boundary: every route's failures end here, inside the site's header and footer.
 * A missing page, a guard's refusal (app/middleware/), a domain failure (app/lib/http-errors.ts,
 * its translated message and status), or an unexpected error (a bug: no details in production).
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  if (isRouteErrorResponse(error) && error.status === 404 && !publicErrorFrom(error.data)) {
    return (
      <Shell>
        <NotFoundPage />
      </Shell>
    )
  }
  const guard = guardFailureOf(error)
  if (guard) {
    return (
      <Shell>
        <GuardPage failure={guard} />
      </Shell>
    )
  }
  const known = isRouteErrorResponse(error) ? publicErrorFrom(error.data) : null
  const heading = errorText(t, known?.messageKey) ?? t('errors.unexpected')
  const lead = known ? null : t('errors.unexpectedLead')
  const details = import.meta.env.DEV && error instanceof Error ? error.stack : null
  return (
    <Shell>
      <PageMeta title={t('errors.title')} description={heading} />
      <section className="mx-auto max-w-3xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold text-slate-900">{heading}</h1>
        {lead ? <p className="mt-4 text-slate-700">{lead}</p> : null}
        {details ? <pre className="mt-6 overflow-auto text-left text-xs">{details}</pre> : null}
        <p className="mt-8">
          <a href="/" className="font-semibold text-red-800 underline">
            {t('notFound.backHome')}
          </a>
        </p>
      </section>
    </Shell>
  )
}
