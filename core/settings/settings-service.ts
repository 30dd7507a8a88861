import { sql } from 'drizzle-orm'
import { cached } from '#core/shared/cached.ts'
import type { Database } from '#db/client.ts'
import { settings } from '#db/schema/index.ts'
import {
  DEFAULT_SETTINGS,
  type SettingKey,
  type Settings,
  type SettingsPatch,
  SettingsPatchSchema,
  SettingsSchema,
} from './settings-schema.ts'

/** PostgreSQL channel on which every app process hears that settings changed. */
export const SETTINGS_CHANNEL = 'settings_changed'

export type SettingsService = {
  /** The current settings, from the in-process cache when it is warm. */
  get(): Promise<Settings>
  /** Keys whose stored value is still a seeded placeholder (shown labelled as demo data). */
  demoKeys(): Promise<SettingKey[]>
  /**
   * Validates and stores a partial change in one transaction, then tells every process.
   * Callers enforce who may change settings.
   * @throws ZodError when the patch is invalid (nothing is written).
   */
  update(patch: SettingsPatch): Promise<Settings>
  /** Drops the cache; the next `get` reads the database. Called on local and remote changes. */
  invalidate(): void
  /** Registers a callback run after every invalidation (e.g. to drop cached pages). */
  onInvalidate(listener: () => void): () => void
}

export function createSettingsService({ db }: { db: Database }): SettingsService {
  type Snapshot = { values: Settings; demoKeys: SettingKey[] }
  const listeners = new Set<() => void>()

  async function load(): Promise<Snapshot> {
    const rows = await db
      .select({ key: settings.key, value: settings.value, isDemo: settings.isDemo })
      .from(settings)
    const stored = new Map(rows.map((row) => [row.key, row.value]))
    const merged: Record<string, unknown> = {}
    for (const [key, schema] of Object.entries(SettingsSchema.shape)) {
      // A row that no longer fits its schema falls back to the default instead of breaking
      // every page; the admin screen shows and fixes it.
      const parsed = schema.safeParse(stored.get(key))
      merged[key] = parsed.success ? parsed.data : DEFAULT_SETTINGS[key as SettingKey]
    }
    const demoKeys = rows
      .filter((row) => row.isDemo && row.key in SettingsSchema.shape)
      .map((row) => row.key as SettingKey)
    return { values: SettingsSchema.parse(merged), demoKeys }
  }

  const snapshot = cached(load)

  function invalidate() {
    snapshot.invalidate()
    for (const listener of listeners) listener()
  }

  return {
    async get() {
      return (await snapshot.get()).values
    },
    async demoKeys() {
      return (await snapshot.get()).demoKeys
    },
    async update(patch) {
      const valid = SettingsPatchSchema.parse(patch)
      const entries = Object.entries(valid).filter(([, value]) => value !== undefined)
      if (entries.length > 0) {
        await db.transaction(async (tx) => {
          for (const [key, value] of entries) {
            await tx
              .insert(settings)
              .values({ key, value, isDemo: false })
              .onConflictDoUpdate({
                target: settings.key,
                set: { value, isDemo: false, updatedAt: new Date() },
              })
          }
          // Delivered to every listening process when the transaction commits.
          await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, '')`)
        })
      }
      invalidate()
      return this.get()
    },
    invalidate,
    onInvalidate(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
