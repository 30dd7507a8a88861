import { seedDatabase } from '#core/seed/seed-database.ts'
import type { Database } from '#db/client.ts'

/**
 * What a fresh installation starts with (settings, both rate tables, the store guide, reviews),
 * for route tests, which do not import db/ themselves (biome.json).
 */
export async function seedAsInstalled(db: Database): Promise<void> {
  await seedDatabase(db)
}
