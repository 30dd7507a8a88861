import { DEFAULT_SETTINGS, SETTING_KEYS, type SettingKey } from '#core/settings/settings-schema.ts'
import type { Database } from './client.ts'
import { settings } from './schema/index.ts'

// Placeholders, not real business data: shown until staff enter the real values.
const DEMO_SETTING_KEYS: ReadonlySet<SettingKey> = new Set(['company', 'messaging'])

/**
 * Seeds what a fresh installation needs. Idempotent: rows that exist are left alone, so a
 * value staff changed is never overwritten by a restart.
 */
export async function seedDatabase(db: Database): Promise<{ inserted: number }> {
  const rows = SETTING_KEYS.map((key) => ({
    key,
    value: DEFAULT_SETTINGS[key],
    isDemo: DEMO_SETTING_KEYS.has(key),
  }))
  const inserted = await db
    .insert(settings)
    .values(rows)
    .onConflictDoNothing()
    .returning({ key: settings.key })
  return { inserted: inserted.length }
}
