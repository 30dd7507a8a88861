import { avg, count, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import { reviews } from '#db/schema/index.ts'

export type Review = {
  id: number
  name: string
  country: string
  rating: number
  text: string
  language: string
  reviewedOn: string
}

export type ReviewSummary = {
  reviews: Review[]
  /** Over every published review, not only the ones listed. */
  average: number | null
  total: number
  /** True while any published review is seeded demo data. */
  includesDemo: boolean
}

export type ReviewsService = {
  /**
   * The newest published reviews, those written in `language` (the visitor's) first: a Spanish
   * page leads with Spanish reviews, then the others, each group newest first.
   */
  latest(limit: number, options?: { language?: string }): Promise<ReviewSummary>
}

export function createReviewsService({ db }: { db: Database }): ReviewsService {
  return {
    async latest(limit, { language } = {}) {
      const sameLanguageFirst = language === undefined ? [] : [sql`(${reviews.language} = ${language}) desc`]
      const [listed, [aggregate]] = await Promise.all([
        db
          .select({
            id: reviews.id,
            name: reviews.name,
            country: reviews.country,
            rating: reviews.rating,
            text: reviews.text,
            language: reviews.language,
            reviewedOn: reviews.reviewedOn,
          })
          .from(reviews)
          .where(eq(reviews.isPublished, true))
          .orderBy(...sameLanguageFirst, desc(reviews.reviewedOn), desc(reviews.id))
          .limit(limit),
        db
          .select({
            average: avg(reviews.rating),
            total: count(),
            includesDemo: sql<boolean | null>`bool_or(${reviews.isDemo})`,
          })
          .from(reviews)
          .where(eq(reviews.isPublished, true)),
      ])
      return {
        reviews: listed,
        average:
          aggregate?.average === null || aggregate?.average === undefined ? null : Number(aggregate.average),
        total: aggregate?.total ?? 0,
        includesDemo: aggregate?.includesDemo ?? false,
      }
    },
  }
}
