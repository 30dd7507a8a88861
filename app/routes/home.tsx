import { Globe, Headphones, Package, PackageCheck, Shield, ShoppingBag, Sparkles, Store } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { href, Link, useLoaderData } from 'react-router'
import { ThirdPartyWidget } from '#app/components/consent/third-party-widget.tsx'
import { FAQ_QUESTIONS, Faq } from '#app/components/home/faq.tsx'
import { FeatureGrid } from '#app/components/home/feature-grid.tsx'
import { Gallery } from '#app/components/home/gallery.tsx'
import { OrderButton } from '#app/components/home/order-button.tsx'
import { ProcessSteps } from '#app/components/home/process-steps.tsx'
import { ReviewsSection } from '#app/components/home/reviews-section.tsx'
import { PageIntro } from '#app/components/page-intro.tsx'
import { JsonLd, PageMeta } from '#app/components/page-meta.tsx'
import { PricingSummary } from '#app/components/pricing-summary.tsx'
import { requestContext } from '#app/context.ts'
import { documentPage } from '#app/lib/page-kind.ts'
import { payWithKey } from '#app/lib/payment-methods.ts'
import { useRootData } from '#app/lib/root-data.ts'
import { areas } from '#app/locales/areas.ts'
import { formatMoney, formatPercent, intlLocale } from '#core/money/money.ts'
import type { Route } from './+types/home.ts'

export const handle = { ...areas('public'), ...documentPage }

export async function loader({ context }: Route.LoaderArgs) {
  const { reviews, language } = context.get(requestContext)
  const summary = await reviews.latest(6, { language })
  // Written out on the server, so server and browser never disagree on a name or a date.
  const countries = new Intl.DisplayNames([intlLocale(language)], { type: 'region' })
  const dates = new Intl.DateTimeFormat(intlLocale(language), {
    year: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  })
  return {
    reviews: {
      ...summary,
      reviews: summary.reviews.map((review) => ({
        ...review,
        countryName: countries.of(review.country) ?? review.country,
        dateLabel: dates.format(new Date(`${review.reviewedOn}T00:00:00Z`)),
      })),
    },
  }
}

export default function HomeRoute() {
  const { t } = useTranslation()
  const { reviews } = useLoaderData<typeof loader>()
  const root = useRootData()
  if (!root) return null
  const { settings, language } = root
  const methods = t(`payWith.${payWithKey(root.payments)}`)
  const faqValues = {
    fee: formatMoney(settings.serviceFeeJpy, 'JPY', language),
    tax: formatPercent(settings.taxRate, language),
    days: settings.freeStorageDays,
    methods,
  }
  return (
    <>
      <PageMeta title={t('home.title')} description={t('home.description')} />
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'FAQPage',
          mainEntity: FAQ_QUESTIONS.map((question) => ({
            '@type': 'Question',
            name: t(`home.faq.${question}.q`),
            acceptedAnswer: { '@type': 'Answer', text: t(`home.faq.${question}.a`, faqValues) },
          })),
        }}
      />
      <HomeIntro messaging={settings.messaging} demo={root.demo.messaging} signedIn={root.user !== null} />
      <ProcessSteps methods={methods} />
      <HomeFeatures methods={methods} />
      <PricingSummary />
      <ReviewsSection summary={reviews} language={language} />
      <GallerySection thirdParty={root.thirdParty} />
      <Faq values={faqValues} />
      <ContactCta />
    </>
  )
}

type RootData = NonNullable<ReturnType<typeof useRootData>>

/** The heading and lead with the three calls to action: order now, the store guide, the calculator. */
function HomeIntro({
  messaging,
  demo,
  signedIn,
}: {
  messaging: RootData['settings']['messaging']
  demo: boolean
  signedIn: boolean
}) {
  const { t } = useTranslation()
  return (
    <PageIntro heading={t('home.heading')} lead={t('home.lead')}>
      <div className="mt-8 flex flex-wrap items-start gap-3">
        <OrderButton messaging={messaging} demo={demo} signedIn={signedIn} />
        <Link
          to={href('/store-guide')}
          className="inline-flex min-h-11 items-center rounded-md border border-slate-300 bg-white px-5 font-semibold text-slate-900 hover:bg-slate-50"
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
  )
}

/** Why order with us, and what else the service offers: two grids of features. */
function HomeFeatures({ methods }: { methods: string }) {
  const { t } = useTranslation()
  return (
    <>
      <FeatureGrid
        id="reasons-heading"
        heading={t('home.reasons.heading')}
        tinted
        items={[
          {
            key: 'anything',
            Icon: ShoppingBag,
            title: t('home.reasons.anything.title'),
            text: t('home.reasons.anything.text'),
          },
          {
            key: 'consolidation',
            Icon: Package,
            title: t('home.reasons.consolidation.title'),
            text: t('home.reasons.consolidation.text'),
          },
          {
            key: 'worldwide',
            Icon: Globe,
            title: t('home.reasons.worldwide.title'),
            text: t('home.reasons.worldwide.text'),
          },
          {
            key: 'support',
            Icon: Headphones,
            title: t('home.reasons.support.title'),
            text: t('home.reasons.support.text'),
          },
        ]}
      />
      <FeatureGrid
        id="extras-heading"
        heading={t('home.extras.heading')}
        items={[
          {
            key: 'service',
            Icon: Sparkles,
            title: t('home.extras.service.title'),
            text: t('home.extras.service.text'),
          },
          {
            key: 'trust',
            Icon: Shield,
            title: t('home.extras.trust.title'),
            text: t('home.extras.trust.text', { methods }),
          },
          { key: 'web', Icon: Store, title: t('home.extras.web.title'), text: t('home.extras.web.text') },
        ]}
      />
    </>
  )
}

/** Our photos, or the Instagram widget once it is configured and consented to. */
function GallerySection({ thirdParty }: { thirdParty: RootData['thirdParty'] }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="gallery-heading" className="mx-auto max-w-6xl px-4 py-12">
      <h2 id="gallery-heading" className="text-2xl font-bold text-slate-900">
        {thirdParty.instagramWidgetId && thirdParty.consent === 'granted'
          ? t('home.gallery.instagramHeading')
          : t('home.gallery.heading')}
      </h2>
      <ThirdPartyWidget widgetId={thirdParty.instagramWidgetId} fallback={<Gallery />} />
    </section>
  )
}

/** The closing banner: a link to the contact page. */
function ContactCta() {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="cta-heading" className="mx-auto max-w-6xl px-4 py-12">
      <div className="flex flex-col items-start gap-4 rounded-xl bg-red-800 p-8 text-white md:flex-row md:items-center md:justify-between">
        <div>
          <h2 id="cta-heading" className="text-2xl font-bold">
            {t('home.cta.heading')}
          </h2>
          <p className="mt-1">{t('home.cta.text')}</p>
        </div>
        <Link
          to={href('/contact')}
          className="inline-flex min-h-11 items-center gap-2 rounded-md bg-white px-5 font-semibold text-red-900"
        >
          <PackageCheck aria-hidden="true" className="size-5" />
          {t('home.cta.button')}
        </Link>
      </div>
    </section>
  )
}
