import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { changedPaths, recordAudit } from '#core/audit/audit-log.ts'
import { cached } from '#core/shared/cached.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Actor, ServiceContext } from '#core/shared/service-context.ts'
import { requireStaffAction } from '#core/shared/staff-policy.ts'
import type { Database, Executor } from '#db/client.ts'
import { settings } from '#db/schema/index.ts'
import {
  DEFAULT_SETTINGS,
  SETTING_KEYS,
  type SettingKey,
  type Settings,
  type SettingsPatch,
  SettingsPatchSchema,
  SettingsSchema,
} from './settings-schema.ts'

/** PostgreSQL channel on which every app process hears that settings changed. */
export const SETTINGS_CHANNEL = 'settings_changed'

// Serialises saves from the admin page, so two admins' saves are checked one after the other.
const SETTINGS_SAVE_LOCK = 727_003

/** The settings as stored now, read past the cache, with the version the admin form carries. */
export type SettingsSnapshot = { values: Settings; demoKeys: SettingKey[]; version: string }

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
  /**
   * What the admin form shows: read from the database (not the cache), with its version.
   * @throws AppError `forbidden` (`adminsOnly`) to anyone but an admin.
   */
  snapshot(actor: Actor | null): Promise<SettingsSnapshot>
  /**
   * The admin page's save: every setting at once, checked as a whole; the keys that changed are
   * written in one transaction with an audit record of old → new, and every process is told.
   * `version` is the one the form showed (from `snapshot`).
   * @throws AppError `forbidden` (not an admin), `invalid` (`settingsInvalid`: nothing written),
   *   `conflict` (`settingsChanged`: another save came first; nothing written).
   */
  save(
    context: ServiceContext,
    input: { values: Settings; version: string },
  ): Promise<{ values: Settings; version: string; changed: SettingKey[] }>
  /** Drops the cache; the next `get` reads the database. Called on local and remote changes. */
  invalidate(): void
  /** Registers a callback run after every invalidation (e.g. to drop cached pages). */
  onInvalidate(listener: () => void): () => void
}

/** Reads the stored settings (through `reader`: the pool or a transaction), defaults filled in. */
async function readStored(reader: Executor): Promise<SettingsSnapshot> {
  const rows = await reader
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
  const values = SettingsSchema.parse(merged)
  return { values, demoKeys, version: settingsVersion(values) }
}

/**
 * A fingerprint of the values (not of when they were written): a save is stale exactly when the
 * settings differ from what its form showed.
 */
export function settingsVersion(values: Settings): string {
  return createHash('sha256').update(stableJson(values)).digest('hex').slice(0, 32)
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${stableJson(child)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export function createSettingsService({ db }: { db: Database }): SettingsService {
  const listeners = new Set<() => void>()
  const cache = cached(() => readStored(db))

  function invalidate() {
    cache.invalidate()
    for (const listener of listeners) listener()
  }

  return {
    async get() {
      return (await cache.get()).values
    },
    async demoKeys() {
      return (await cache.get()).demoKeys
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
    async snapshot(actor) {
      requireStaffAction(actor, 'manage_settings')
      return readStored(db)
    },
    async save({ db: database, actor }, input) {
      const admin = requireStaffAction(actor, 'manage_settings')
      const parsed = SettingsSchema.safeParse(input.values)
      if (!parsed.success)
        throw new AppError('invalid', 'Settings do not pass their schema', { reason: 'settingsInvalid' })
      const next = parsed.data
      const result = await database.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${SETTINGS_SAVE_LOCK})`)
        const current = await readStored(tx)
        if (current.version !== input.version)
          throw new AppError('conflict', 'The settings changed since the form was shown', {
            reason: 'settingsChanged',
          })
        const changed = SETTING_KEYS.filter(
          (key) => stableJson(current.values[key]) !== stableJson(next[key]),
        )
        if (changed.length === 0) return { values: current.values, version: current.version, changed }
        for (const key of changed) {
          const value = next[key]
          await tx
            .insert(settings)
            .values({ key, value, isDemo: false })
            .onConflictDoUpdate({
              target: settings.key,
              set: { value, isDemo: false, updatedAt: new Date() },
            })
        }
        const diff = changedPaths(
          Object.fromEntries(changed.map((key) => [key, current.values[key]])),
          Object.fromEntries(changed.map((key) => [key, next[key]])),
        )
        await recordAudit(tx, {
          actorId: admin.id,
          kind: 'settings.update',
          subject: { type: 'settings' },
          ...diff,
        })
        // Delivered to every listening process when the transaction commits.
        await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, '')`)
        return { values: next, version: settingsVersion(next), changed }
      })
      if (result.changed.length > 0) invalidate()
      return result
    },
    invalidate,
    onInvalidate(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
