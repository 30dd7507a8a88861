import { expect, test } from 'vitest'
import { seedDatabase } from '#core/seed/seed-database.ts'
import { stores } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createCatalogService } from './catalog-service.ts'

const EXPECTED_COUNTS = {
  general_and_anime_goods: 5,
  official_anime_stores: 13,
  fashion_and_lifestyle: 13,
  household_and_misc: 6,
  beauty_and_cosmetics: 4,
  figures_and_collectibles: 6,
}

test('the seeded guide has the specification counts per category, in the dropdown order', async () => {
  const { db } = await createTestDatabase()
  expect((await seedDatabase(db)).stores).toBe(45)
  const groups = await createCatalogService({ db }).storeGuide({ language: 'en', category: null })
  expect(Object.fromEntries(groups.map((group) => [group.category, group.stores.length]))).toEqual(
    EXPECTED_COUNTS,
  )
  expect(groups.map((group) => group.category)).toEqual(Object.keys(EXPECTED_COUNTS))
  const all = groups.flatMap((group) => group.stores)
  expect(all.every((store) => store.url.startsWith('https://'))).toBe(true)
})

test('Amazon and Rakuten appear in both the general and the beauty groups', async () => {
  const { db } = await createTestDatabase()
  await seedDatabase(db)
  const catalog = createCatalogService({ db })
  for (const category of ['general_and_anime_goods', 'beauty_and_cosmetics'] as const) {
    const [group] = await catalog.storeGuide({ language: 'en', category })
    expect(group?.stores.map((store) => store.slug)).toEqual(
      expect.arrayContaining(['amazon-japan', 'rakuten-ichiba']),
    )
  }
})

test('one category can be asked for, and descriptions come in the asked language', async () => {
  const { db } = await createTestDatabase()
  await seedDatabase(db)
  const catalog = createCatalogService({ db })
  const spanish = await catalog.storeGuide({ language: 'es', category: 'household_and_misc' })
  expect(spanish).toHaveLength(1)
  expect(spanish[0]?.stores.find((store) => store.slug === 'muji')?.description).toContain('hogar')
  const english = await catalog.storeGuide({ language: 'en', category: 'household_and_misc' })
  expect(english[0]?.stores.find((store) => store.slug === 'muji')?.description).toContain('Home goods')
})

test('a store the database refuses never half-exists', async () => {
  const { db } = await createTestDatabase()
  const base = { slug: 'x', name: 'X', descriptionEs: 'x', descriptionEn: 'x', logoText: 'X' }
  await expect(
    db.insert(stores).values({ ...base, url: 'http://insecure.example', logoColor: '#000000' }),
  ).rejects.toThrow()
  await expect(
    db.insert(stores).values({ ...base, url: 'https://ok.example', logoColor: 'red' }),
  ).rejects.toThrow()
  expect(await db.select().from(stores)).toEqual([])
})
