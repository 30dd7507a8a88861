import { asc, sql } from 'drizzle-orm'
import { recordAudit } from '#core/audit/audit-log.ts'
import { SHIPPING_METHODS, type ShippingMethod } from '#core/pricing/pricing.ts'
import { SEED_IMPORT_RULES, SEED_METHOD_RULES } from '#core/seed/data/import-rules.ts'
import { SETTINGS_CHANNEL } from '#core/settings/settings-service.ts'
import { cached } from '#core/shared/cached.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Actor, ServiceContext } from '#core/shared/service-context.ts'
import { requireStaffAction } from '#core/shared/staff-policy.ts'
import type { Database, Executor } from '#db/client.ts'
import { destinationMethods, importRules } from '#db/schema/index.ts'
import { type DestinationRules, type MethodBlock, rulesForDay } from './destination-rules.ts'
import { type ImportRule, ImportRuleSchema, type ImportRuleVersion } from './import-rules.ts'

/**
 * Import rules and the methods each destination can use, as stored (issue 30, ADR 046): read
 * through an in-process cache invalidated with the settings (every process hears the change),
 * written by admins only, each write audited in its transaction. A version is added, never
 * changed: receipts freeze the estimate they showed (invoices.importEstimate).
 */

export type StoredRules = {
  versions: ImportRuleVersion[]
  blocks: (MethodBlock & { country: string; method: ShippingMethod })[]
}

export type ImportRulesService = {
  /** Every version and block, from the cache when warm. */
  all(): Promise<StoredRules>
  /** The rules in effect on a day (default today), as the calculators and estimates read them. */
  inEffect(day?: string): Promise<DestinationRules>
  /**
   * Adds a version of a country's rule.
   * @throws AppError `forbidden` (not an admin), `invalid` (`importRuleInvalid`). Nothing is written.
   */
  addVersion(
    context: ServiceContext,
    input: { country: string; effectiveFrom: string; rule: ImportRule },
  ): Promise<{ id: string }>
  /**
   * Says whether a destination can use a method, why and since when (available with no reason
   * removes the row: the default).
   * @throws AppError `forbidden` (not an admin).
   */
  setMethod(
    context: ServiceContext,
    input: {
      country: string
      method: ShippingMethod
      available: boolean
      note: { es: string; en: string }
      source: string
      effectiveFrom: string
    },
  ): Promise<void>
  invalidate(): void
  onInvalidate(listener: () => void): () => void
}

export async function readAll(reader: Executor): Promise<StoredRules> {
  const rows = await reader
    .select()
    .from(importRules)
    .orderBy(asc(importRules.country), asc(importRules.effectiveFrom), asc(importRules.createdAt))
  const versions: ImportRuleVersion[] = []
  for (const row of rows) {
    const parsed = ImportRuleSchema.safeParse(row.rule)
    // A row no longer readable is skipped rather than guessed (the admin page lists it as such).
    if (!parsed.success) continue
    versions.push({
      id: row.id,
      country: row.country,
      effectiveFrom: row.effectiveFrom,
      rule: parsed.data,
      createdAt: row.createdAt,
    })
  }
  const methodRows = await reader.select().from(destinationMethods)
  const blocks = methodRows.flatMap((row) =>
    (SHIPPING_METHODS as readonly string[]).includes(row.method)
      ? [
          {
            country: row.country,
            method: row.method as ShippingMethod,
            available: row.available,
            note: row.note,
            source: row.source,
            effectiveFrom: row.effectiveFrom,
          },
        ]
      : [],
  )
  return { versions, blocks }
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

const COUNTRY = /^[A-Z]{2}$/
const DAY = /^\d{4}-\d{2}-\d{2}$/

export function createImportRulesService({ db, now = () => new Date() }: { db: Database; now?: () => Date }) {
  const listeners = new Set<() => void>()
  const stored = cached(() => readAll(db))

  function invalidate() {
    stored.invalidate()
    for (const listener of listeners) listener()
  }

  const service: ImportRulesService = {
    all: stored.get,
    async inEffect(day) {
      return rulesForDay(await stored.get(), day ?? now().toISOString().slice(0, 10))
    },
    async addVersion({ db: database, actor }, input) {
      const admin = requireAdmin(actor)
      const parsed = ImportRuleSchema.safeParse(input.rule)
      if (!parsed.success || !COUNTRY.test(input.country) || !DAY.test(input.effectiveFrom))
        throw new AppError('invalid', 'The import rule is not usable', { reason: 'importRuleInvalid' })
      const id = await database.transaction(async (tx) => {
        const [row] = await tx
          .insert(importRules)
          .values({
            country: input.country,
            effectiveFrom: input.effectiveFrom,
            rule: parsed.data,
            createdBy: admin.id,
          })
          .returning({ id: importRules.id })
        if (!row) throw new Error('insert returned no row')
        await recordAudit(tx, {
          actorId: admin.id,
          kind: 'import_rule.add',
          subject: { type: 'import_rule', id: input.country },
          before: {},
          after: { effectiveFrom: input.effectiveFrom, ...flatten(parsed.data) },
        })
        await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, '')`)
        return row.id
      })
      invalidate()
      return { id }
    },
    async setMethod({ db: database, actor }, input) {
      const admin = requireAdmin(actor)
      if (!COUNTRY.test(input.country) || !DAY.test(input.effectiveFrom))
        throw new AppError('invalid', 'Not a country or a day', { reason: 'importRuleInvalid' })
      await database.transaction(async (tx) => {
        const [was] = await tx
          .select()
          .from(destinationMethods)
          .where(
            sql`${destinationMethods.country} = ${input.country} and ${destinationMethods.method} = ${input.method}`,
          )
        if (input.available && !input.note.es && !input.note.en) {
          await tx
            .delete(destinationMethods)
            .where(
              sql`${destinationMethods.country} = ${input.country} and ${destinationMethods.method} = ${input.method}`,
            )
        } else {
          const values = {
            available: input.available,
            note: input.note,
            source: input.source,
            effectiveFrom: input.effectiveFrom,
            isSeed: false,
            updatedBy: admin.id,
            updatedAt: now(),
          }
          await tx
            .insert(destinationMethods)
            .values({ country: input.country, method: input.method, ...values })
            .onConflictDoUpdate({
              target: [destinationMethods.country, destinationMethods.method],
              set: values,
            })
        }
        await recordAudit(tx, {
          actorId: admin.id,
          kind: 'destination.methods',
          subject: { type: 'destination', id: `${input.country}:${input.method}` },
          before: was ? { available: was.available, effectiveFrom: was.effectiveFrom } : { available: true },
          after: { available: input.available, effectiveFrom: input.effectiveFrom },
        })
        await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, '')`)
      })
      invalidate()
    },
    invalidate,
    onInvalidate(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  return service
}

function requireAdmin(actor: Actor | null): Actor {
  return requireStaffAction(actor, 'manage_settings')
}

/** A rule as flat paths for the audit record ("bands.0.vatBp"). */
function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (value === null || typeof value !== 'object') return { [prefix]: value }
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    Object.assign(out, flatten(inner, prefix ? `${prefix}.${key}` : key))
  }
  return out
}
