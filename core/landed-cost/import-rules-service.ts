import { asc, desc, eq, sql } from 'drizzle-orm'
import { recordAudit } from '#core/audit/audit-log.ts'
import { SHIPPING_METHODS, type ShippingMethod } from '#core/pricing/pricing.ts'
import { SETTINGS_CHANNEL } from '#core/settings/settings-service.ts'
import { cached } from '#core/shared/cached.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Actor, ServiceContext } from '#core/shared/service-context.ts'
import { requireStaffAction } from '#core/shared/staff-policy.ts'
import type { Database, Executor } from '#db/client.ts'
import { destinationMethods, importRules, users } from '#db/schema/index.ts'
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
  /**
   * What the admin page shows: every stored version, newest first, with whether it is seed data
   * and who added it (null rule: a row no longer readable), and every method row.
   * @throws AppError `forbidden` (not an admin).
   */
  history(actor: Actor | null): Promise<StoredHistory>
  invalidate(): void
  onInvalidate(listener: () => void): () => void
}

export type StoredHistory = {
  versions: (Omit<ImportRuleVersion, 'rule'> & {
    rule: ImportRule | null
    isSeed: boolean
    createdBy: string | null
  })[]
  methods: (MethodBlock & {
    country: string
    method: string
    isSeed: boolean
    updatedBy: string | null
    updatedAt: Date
  })[]
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
    async history(actor) {
      requireAdmin(actor)
      const rows = await db
        .select({ row: importRules, by: users.email })
        .from(importRules)
        .leftJoin(users, eq(users.id, importRules.createdBy))
        .orderBy(asc(importRules.country), desc(importRules.effectiveFrom), desc(importRules.createdAt))
      const methodRows = await db
        .select({ row: destinationMethods, by: users.email })
        .from(destinationMethods)
        .leftJoin(users, eq(users.id, destinationMethods.updatedBy))
        .orderBy(asc(destinationMethods.country), asc(destinationMethods.method))
      return {
        versions: rows.map(({ row, by }) => {
          const parsed = ImportRuleSchema.safeParse(row.rule)
          return {
            id: row.id,
            country: row.country,
            effectiveFrom: row.effectiveFrom,
            rule: parsed.success ? parsed.data : null,
            createdAt: row.createdAt,
            isSeed: row.isSeed,
            createdBy: by,
          }
        }),
        methods: methodRows.map(({ row, by }) => ({
          country: row.country,
          method: row.method,
          available: row.available,
          note: row.note,
          source: row.source,
          effectiveFrom: row.effectiveFrom,
          isSeed: row.isSeed,
          updatedBy: by,
          updatedAt: row.updatedAt,
        })),
      }
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
