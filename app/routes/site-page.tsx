import { useTranslation } from 'react-i18next'
import { Link, useLoaderData } from 'react-router'
import { PageIntro } from '#app/components/page-intro.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { documentPage } from '#app/lib/page-kind.ts'
import { areas } from '#app/locales/areas.ts'
import { formatMoney, formatPercent } from '#core/money/money.ts'
import { inLanguage } from '#core/settings/bilingual.ts'
import {
  fillPlaceholders,
  type SitePageBlock,
  type SitePageSlug,
  sectionsOf,
} from '#core/site-pages/site-page-text.ts'
import { getSitePage } from '#core/site-pages/site-pages-service.ts'
import type { Route } from './+types/site-page.ts'

// The public pages staff write in both languages (ADR 038): /prohibited-items (what we cannot
// buy or ship) and /seller-disclosure (特定商取引法に基づく表記). Server-rendered from the
// database in the reader's language; `{{…}}` in the text are the shop's current settings.

export const handle = { ...areas('public'), ...documentPage }

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, settings, language } = context.get(requestContext)
  // The page is the path's (a navigation in the browser asks for "/seller-disclosure.data").
  const slug = new URL(request.url).pathname.replace(/\.data$/, '').replace(/^\/+|\/+$/g, '') as SitePageSlug
  const [page, values] = await Promise.all([getSitePage(db, slug), settings.get()])
  const fill = (text: string) =>
    fillPlaceholders(text, {
      'company.name': values.company.name,
      'company.address': inLanguage(values.company.address, language),
      'company.email': values.company.email,
      'company.taxRegistrationId': values.company.taxRegistrationId,
      serviceFee: formatMoney(values.serviceFeeJpy, 'JPY', language),
      taxRate: formatPercent(values.taxRate, language),
      daysToPay: String(values.daysToPay),
      freeStorageDays: String(values.freeStorageDays),
      storageFeePerDay: formatMoney(values.storageFeePerDayJpy, 'JPY', language),
    })
  return {
    slug: page.slug,
    title: fill(page.title[language]),
    lead: fill(page.lead[language]),
    sections: sectionsOf(fill(page.body[language])),
  }
}

export default function SitePageRoute() {
  const { t } = useTranslation()
  const { slug, title, lead, sections } = useLoaderData<typeof loader>()
  // The disclosure is a table of items (seller, address, prices…); the other page reads as prose.
  const asTable = slug === 'seller-disclosure'
  return (
    <>
      <PageMeta title={title} description={lead} />
      <PageIntro heading={title} lead={lead} />
      <div className="mx-auto max-w-3xl px-4 pb-12">
        {asTable ? (
          <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {sections.map((section, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: sections never reorder on a page
              <div key={index} className="grid gap-1 p-4 sm:grid-cols-[14rem_1fr] sm:gap-4">
                <dt className="font-semibold text-slate-900">{section.heading}</dt>
                <dd className="space-y-2 text-slate-800">
                  <Blocks blocks={section.blocks} />
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <div className="space-y-8">
            {sections.map((section, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: sections never reorder on a page
              <section key={index} className="space-y-3">
                {section.heading ? (
                  <h2 className="text-2xl font-bold text-slate-900">{section.heading}</h2>
                ) : null}
                <Blocks blocks={section.blocks} />
              </section>
            ))}
          </div>
        )}
        <p className="mt-10">
          <Link to="/contact" className="font-semibold text-red-800 underline">
            {t('sitePages.questions')}
          </Link>
        </p>
      </div>
    </>
  )
}

function Blocks({ blocks }: { blocks: SitePageBlock[] }) {
  return blocks.map((block, index) =>
    block.type === 'list' ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: blocks never reorder
      <ul key={index} className="list-disc space-y-1 pl-6 text-slate-800">
        {block.items.map((item, position) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items never reorder
          <li key={position}>{item}</li>
        ))}
      </ul>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: blocks never reorder
      <p key={index} className="whitespace-pre-line text-slate-800">
        {block.text}
      </p>
    ),
  )
}
