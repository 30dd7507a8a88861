import { expect, test } from 'vitest'
import { seedDatabase } from '#core/seed/seed-database.ts'
import { reviews } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createReviewsService } from './reviews-service.ts'

test('the latest published reviews with the aggregate over all of them, flagged while demo data is in', async () => {
  const { db } = await createTestDatabase()
  expect((await seedDatabase(db)).reviews).toBe(6)
  const summary = await createReviewsService({ db }).latest(4)
  expect(summary.reviews).toHaveLength(4)
  expect(summary.total).toBe(6)
  expect(summary.average).toBeCloseTo(28 / 6)
  expect(summary.includesDemo).toBe(true)
  const dates = summary.reviews.map((review) => review.reviewedOn)
  expect(dates).toEqual([...dates].sort().reverse())
})

test('unpublished reviews are neither listed nor counted; no reviews means no average', async () => {
  const { db } = await createTestDatabase()
  const service = createReviewsService({ db })
  expect(await service.latest(6)).toEqual({ reviews: [], average: null, total: 0, includesDemo: false })
  await db.insert(reviews).values([
    { name: 'A', country: 'MX', rating: 5, text: 'Bien', language: 'es', reviewedOn: '2026-01-01' },
    {
      name: 'B',
      country: 'MX',
      rating: 1,
      text: 'Oculta',
      language: 'es',
      reviewedOn: '2026-01-02',
      isPublished: false,
    },
  ])
  expect(await service.latest(6)).toMatchObject({ total: 1, average: 5, includesDemo: false })
})

test("the visitor's language first, then the others, each group newest first", async () => {
  const { db } = await createTestDatabase()
  await db.insert(reviews).values([
    { name: 'A', country: 'US', rating: 5, text: 'Newest', language: 'en', reviewedOn: '2026-10-01' },
    { name: 'B', country: 'MX', rating: 5, text: 'Vieja', language: 'es', reviewedOn: '2026-01-01' },
    { name: 'C', country: 'CL', rating: 4, text: 'Nueva', language: 'es', reviewedOn: '2026-09-01' },
    { name: 'D', country: 'GB', rating: 4, text: 'Older', language: 'en', reviewedOn: '2026-02-01' },
  ])
  const service = createReviewsService({ db })
  const names = async (language?: string) =>
    (await service.latest(6, language === undefined ? {} : { language })).reviews.map((review) => review.name)
  expect(await names('es')).toEqual(['C', 'B', 'A', 'D'])
  expect(await names('en')).toEqual(['A', 'D', 'C', 'B'])
  expect(await names()).toEqual(['A', 'C', 'D', 'B'])
  // The limit keeps the visitor's language: two slots go to the two Spanish reviews.
  const firstTwo = await service.latest(2, { language: 'es' })
  expect(firstTwo.reviews.map((review) => review.name)).toEqual(['C', 'B'])
})

test('the database refuses a rating outside 1 to 5 or an unknown country code', async () => {
  const { db } = await createTestDatabase()
  const base = { name: 'X', text: 'x', language: 'es', reviewedOn: '2026-01-01' }
  await expect(db.insert(reviews).values({ ...base, country: 'MX', rating: 6 })).rejects.toThrow()
  await expect(db.insert(reviews).values({ ...base, country: 'Mexico', rating: 5 })).rejects.toThrow()
})
