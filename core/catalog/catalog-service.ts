import { asc, eq } from 'drizzle-orm'
import type { Language } from '#core/preferences/preferences.ts'
import type { Database } from '#db/client.ts'
import { storeCategories, stores } from '#db/schema/index.ts'
import { STORE_CATEGORIES, type StoreCategory } from './store-categories.ts'

export type StoreCard = {
  slug: string
  name: string
  url: string
  description: string
  logoText: string
  logoColor: string
}

export type StoreGroup = { category: StoreCategory; stores: StoreCard[] }

export type CatalogService = {
  /**
   * The store guide in the guide's category order: one group for `category`, or every group
   * when it is null. A store in two categories appears in both groups.
   */
  storeGuide(input: { language: Language; category: StoreCategory | null }): Promise<StoreGroup[]>
}

export function createCatalogService({ db }: { db: Database }): CatalogService {
  return {
    async storeGuide({ language, category }) {
      const description = language === 'es' ? stores.descriptionEs : stores.descriptionEn
      const query = db
        .select({
          category: storeCategories.category,
          slug: stores.slug,
          name: stores.name,
          url: stores.url,
          description,
          logoText: stores.logoText,
          logoColor: stores.logoColor,
        })
        .from(storeCategories)
        .innerJoin(stores, eq(stores.id, storeCategories.storeId))
        .orderBy(asc(stores.sortOrder), asc(stores.name))
      const rows = category ? await query.where(eq(storeCategories.category, category)) : await query
      const groups = new Map<StoreCategory, StoreCard[]>()
      for (const { category: rowCategory, ...card } of rows) {
        const key = STORE_CATEGORIES.find((known) => known === rowCategory)
        if (!key) continue
        groups.set(key, [...(groups.get(key) ?? []), card])
      }
      return STORE_CATEGORIES.filter((key) => groups.has(key)).map((key) => ({
        category: key,
        stores: groups.get(key) ?? [],
      }))
    },
  }
}
