import { and, asc, eq } from 'drizzle-orm'
import type { Language } from '#core/preferences/preferences.ts'
import type { Database } from '#db/client.ts'
import { storeCategories, stores } from '#db/schema/index.ts'
import { STORE_CATEGORIES, type StoreCategory } from './store-categories.ts'
import { storeLogoUrl } from './store-editor.ts'

export type StoreCard = {
  slug: string
  name: string
  url: string
  description: string
  logoText: string
  logoColor: string
  /** An uploaded logo's address, or null: the monogram (logoText on logoColor) is shown. */
  logoUrl: string | null
}

export type StoreGroup = { category: StoreCategory; stores: StoreCard[] }

export type CatalogService = {
  /**
   * The store guide in the guide's category order: one group for `category`, or every group
   * when it is null. A store in two categories appears in both groups.
   */
  storeGuide(input: { language: Language; category: StoreCategory | null }): Promise<StoreGroup[]>
  /** Called by the store editor's pages after a change: this process's cached pages go at once. */
  changed(): void
  /** Registers a callback run after `changed` (server/app.ts drops the page cache). */
  onChange(listener: () => void): () => void
}

export function createCatalogService({ db }: { db: Database }): CatalogService {
  const listeners = new Set<() => void>()
  return {
    changed() {
      for (const listener of listeners) listener()
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
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
          logoSha256: stores.logoSha256,
          id: stores.id,
        })
        .from(storeCategories)
        .innerJoin(stores, eq(stores.id, storeCategories.storeId))
        .orderBy(asc(stores.sortOrder), asc(stores.name))
      const visible = eq(stores.hidden, false)
      const rows = await query.where(
        category ? and(visible, eq(storeCategories.category, category)) : visible,
      )
      const groups = new Map<StoreCategory, StoreCard[]>()
      for (const { category: rowCategory, logoSha256, id, ...rest } of rows) {
        const card = { ...rest, logoUrl: storeLogoUrl(id, logoSha256) }
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
