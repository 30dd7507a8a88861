import { Star } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ThirdPartyWidget } from '#app/components/consent/third-party-widget.tsx'
import { useRootData } from '#app/lib/root-data.ts'
import type { Language } from '#core/preferences/preferences.ts'
import type { ReviewSummary } from '#core/reviews/reviews-service.ts'

function Stars({ rating, label }: { rating: number; label: string }) {
  return (
    <span role="img" aria-label={label} className="inline-flex">
      {[1, 2, 3, 4, 5].map((value) => (
        <Star
          key={value}
          aria-hidden="true"
          className={`size-4 ${value <= Math.round(rating) ? 'fill-amber-500 text-amber-600' : 'text-slate-300'}`}
        />
      ))}
    </span>
  )
}

/** Our own reviews with their aggregate; the third-party widget joins only after consent. */
/** A review with its country and date already written out in the page language (server ICU). */
export type ReviewCard = ReviewSummary['reviews'][number] & { countryName: string; dateLabel: string }

export function ReviewsSection({
  summary,
  language,
}: {
  summary: Omit<ReviewSummary, 'reviews'> & { reviews: ReviewCard[] }
  language: Language
}) {
  const { t } = useTranslation()
  const root = useRootData()
  const average =
    summary.average === null ? null : summary.average.toLocaleString(language, { maximumFractionDigits: 1 })
  return (
    <section aria-labelledby="reviews-heading" className="mx-auto max-w-6xl px-4 py-12">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="reviews-heading" className="text-2xl font-bold text-slate-900">
          {t('home.reviews.heading')}
        </h2>
        {average === null ? null : (
          <p className="flex items-center gap-2 text-slate-800">
            <Stars rating={summary.average ?? 0} label={t('home.reviews.average', { average })} />
            <span className="font-semibold">{t('home.reviews.average', { average })}</span>
            <span className="text-sm text-slate-600">
              {t('home.reviews.basedOn', { count: summary.total })}
            </span>
          </p>
        )}
      </div>
      {summary.includesDemo ? (
        <p className="mt-2 inline-block rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-950">
          {t('site.demoData')}
        </p>
      ) : null}
      {summary.reviews.length === 0 ? (
        <p className="mt-6 text-slate-700">{t('home.reviews.empty')}</p>
      ) : (
        <ul className="mt-6 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          {summary.reviews.map((review) => (
            <li key={review.id} className="rounded-lg border border-slate-200 p-5">
              <figure>
                <Stars rating={review.rating} label={t('home.reviews.stars', { rating: review.rating })} />
                <blockquote lang={review.language} className="mt-2 text-slate-800">
                  {review.text}
                </blockquote>
                <figcaption className="mt-3 text-sm text-slate-600">
                  <span className="font-semibold text-slate-900">{review.name}</span>
                  {' · '}
                  {review.countryName}
                  {' · '}
                  <time dateTime={review.reviewedOn}>{review.dateLabel}</time>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
      {root?.thirdParty.reviewsWidgetId ? (
        <div className="mt-8">
          <h3 className="text-lg font-semibold text-slate-900">{t('home.reviews.widgetHeading')}</h3>
          <ThirdPartyWidget widgetId={root.thirdParty.reviewsWidgetId} fallback={null} />
        </div>
      ) : null}
    </section>
  )
}
