import { and, eq, sql } from 'drizzle-orm'
import { SEED_IMPORT_RULES, SEED_METHOD_RULES } from '#core/seed/data/import-rules.ts'
import { SEED_REVIEWS } from '#core/seed/data/reviews.ts'
import { seedRateRows } from '#core/seed/data/shipping-rates.ts'
import { SEED_STORES } from '#core/seed/data/stores.ts'
import { DEFAULT_SETTINGS, SETTING_KEYS, type SettingKey } from '#core/settings/settings-schema.ts'
import { SEED_SITE_PAGES } from '#core/site-pages/default-pages.ts'
import type { Database, Executor } from '#db/client.ts'
import {
  destinationMethods,
  importRules,
  reviews,
  settings,
  shippingRates,
  sitePages,
  storeCategories,
  stores,
} from '#db/schema/index.ts'

// Placeholders, not real business data: shown until staff enter the real values.
const DEMO_SETTING_KEYS: ReadonlySet<SettingKey> = new Set(['company', 'messaging', 'bankTransfer'])

/**
 * Seeds what a fresh installation needs. Idempotent: rows that exist are left alone, so a
 * value staff changed is never overwritten by a restart.
 */
export async function seedDatabase(db: Database): Promise<{
  importRules: number
  settings: number
  shippingRates: number
  stores: number
  reviews: number
}> {
  return db.transaction(async (tx) => {
    const settingRows = SETTING_KEYS.map((key) => ({
      key,
      value: DEFAULT_SETTINGS[key],
      isDemo: DEMO_SETTING_KEYS.has(key),
    }))
    const insertedSettings = await tx
      .insert(settings)
      .values(settingRows)
      .onConflictDoNothing()
      .returning({ key: settings.key })
    // Placeholders staff never saved (still marked demo) follow the current defaults: the demo's
    // company and bank texts became bilingual (ADR 038), and a database seeded before shows them.
    for (const row of settingRows) {
      if (!row.isDemo) continue
      await tx
        .update(settings)
        .set({ value: row.value })
        .where(
          and(
            eq(settings.key, row.key),
            eq(settings.isDemo, true),
            sql`${settings.value} <> ${JSON.stringify(row.value)}::jsonb`,
          ),
        )
    }

    // A table staff already filled is theirs: only an empty table is seeded, never merged.
    const [existingRate] = await tx.select({ method: shippingRates.method }).from(shippingRates).limit(1)
    const insertedRates = existingRate
      ? []
      : await tx
          .insert(shippingRates)
          .values(
            seedRateRows().map((row) => ({
              method: row.method,
              ceilingG: row.ceilingG,
              asia: row.prices.asia,
              europeCanadaMexico: row.prices.europe_canada_mexico,
              usa: row.prices.usa,
              centralSouthAmerica: row.prices.central_south_america,
              assumption: row.assumption,
            })),
          )
          .returning({ method: shippingRates.method })

    // Likewise the store guide: seeded once, then it belongs to staff.
    const [existingStore] = await tx.select({ id: stores.id }).from(stores).limit(1)
    let insertedStores = 0
    if (!existingStore) {
      const created = await tx
        .insert(stores)
        .values(
          SEED_STORES.map((store, index) => ({
            slug: store.slug,
            name: store.name,
            url: store.url,
            descriptionEs: store.es,
            descriptionEn: store.en,
            logoText: store.logo,
            logoColor: store.color,
            sortOrder: index,
          })),
        )
        .returning({ id: stores.id, slug: stores.slug })
      const idBySlug = new Map(created.map((row) => [row.slug, row.id]))
      await tx
        .insert(storeCategories)
        .values(
          SEED_STORES.flatMap((store) =>
            store.categories.map((category) => ({ storeId: idBySlug.get(store.slug) ?? -1, category })),
          ),
        )
      insertedStores = created.length
    }

    // The public pages staff write (ADR 038): seeded once each; a saved page is never replaced.
    await tx
      .insert(sitePages)
      .values(Object.entries(SEED_SITE_PAGES).map(([slug, texts]) => ({ slug, ...texts })))
      .onConflictDoNothing()

    const [existingReview] = await tx.select({ id: reviews.id }).from(reviews).limit(1)
    const insertedReviews = existingReview
      ? []
      : await tx
          .insert(reviews)
          .values(SEED_REVIEWS.map((review) => ({ ...review, isDemo: true })))
          .returning({ id: reviews.id })
    // Import rules and the methods each destination can use (issue 30): seeded into empty tables.
    const importSeed = await seedImportRules(tx)
    return {
      importRules: importSeed.rules,
      settings: insertedSettings.length,
      shippingRates: insertedRates.length,
      stores: insertedStores,
      reviews: insertedReviews.length,
    }
  })
}

/** The seeded rules and blocks, written once into empty tables (the seed's rule: staff's data is theirs). */
export async function seedImportRules(tx: Executor): Promise<{ rules: number; methods: number }> {
  const [anyRule] = await tx.select({ id: importRules.id }).from(importRules).limit(1)
  let rules = 0
  if (!anyRule) {
    const inserted = await tx
      .insert(importRules)
      .values(
        SEED_IMPORT_RULES.map((seed) => ({
          country: seed.country,
          effectiveFrom: seed.effectiveFrom,
          rule: seed.rule,
          isSeed: true,
        })),
      )
      .returning({ id: importRules.id })
    rules = inserted.length
  }
  const [anyMethod] = await tx
    .select({ country: destinationMethods.country })
    .from(destinationMethods)
    .limit(1)
  let methods = 0
  if (!anyMethod && !anyRule) {
    const inserted = await tx
      .insert(destinationMethods)
      .values(SEED_METHOD_RULES.map((seed) => ({ ...seed, isSeed: true })))
      .returning({ country: destinationMethods.country })
    methods = inserted.length
  }
  return { rules, methods }
}
