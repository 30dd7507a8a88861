import { createHash } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { recordAudit } from '#core/audit/audit-log.ts'
import { SETTINGS_CHANNEL } from '#core/settings/settings-service.ts'
import { cached } from '#core/shared/cached.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Actor, ServiceContext } from '#core/shared/service-context.ts'
import { requireStaffAction } from '#core/shared/staff-policy.ts'
import type { Database, Executor } from '#db/client.ts'
import { shippingRates } from '#db/schema/index.ts'
import { type RateRow, type RateTables, REGIONS, type ShippingMethod } from './pricing.ts'
import { rateTableProblems } from './rate-tables.ts'

export type RateTablesSnapshot = {
  tables: RateTables
  /** Rows whose prices rest on an assumption, with what was assumed. */
  assumptions: { method: ShippingMethod; ceilingG: number; note: string }[]
}

export type ShippingRatesService = {
  /** Both rate tables, sorted by ceiling, from the in-process cache when warm. */
  get(): Promise<RateTablesSnapshot>
  /**
   * What the admin editor shows: read from the database (not the cache), each table's version.
   * @throws AppError `forbidden` (`adminsOnly`) to anyone but an admin.
   */
  snapshot(actor: Actor | null): Promise<RateTablesSnapshot & { versions: Record<ShippingMethod, string> }>
  /**
   * Replaces one method's table (the admin editor's save) in one transaction, with an audit
   * record of the rows that changed, and tells every process (the same channel as settings).
   * `version` is the one the editor showed. Issued invoices keep their own amounts: they never
   * read this table again.
   * @throws AppError `forbidden` (not an admin), `invalid` (`ratesInvalid`: not a usable table),
   *   `conflict` (`ratesChanged`: the table changed since it was shown). Nothing is written.
   */
  replace(
    context: ServiceContext,
    input: { method: ShippingMethod; rows: RateRow[]; version: string },
  ): Promise<{ version: string; changed: boolean }>
  invalidate(): void
  /** Registers a callback run after every invalidation (e.g. to drop cached pages). */
  onInvalidate(listener: () => void): () => void
}

// Serialises saves of the rate tables (see settings-service.ts for the settings' own).
const RATES_SAVE_LOCK = 727_004

type StoredRow = RateRow & { method: ShippingMethod; assumption: string | null }

async function readRows(reader: Executor, method?: ShippingMethod): Promise<StoredRow[]> {
  const rows = await reader
    .select()
    .from(shippingRates)
    .where(method ? eq(shippingRates.method, method) : undefined)
    .orderBy(shippingRates.method, shippingRates.ceilingG)
  return rows.flatMap((row) =>
    row.method === 'economic' || row.method === 'express'
      ? [
          {
            method: row.method,
            ceilingG: row.ceilingG,
            prices: {
              asia: row.asia,
              europe_canada_mexico: row.europeCanadaMexico,
              usa: row.usa,
              central_south_america: row.centralSouthAmerica,
            },
            assumption: row.assumption,
          },
        ]
      : [],
  )
}

function toSnapshot(rows: StoredRow[]): RateTablesSnapshot {
  const tables: RateTables = { economic: [], express: [] }
  const assumptions: RateTablesSnapshot['assumptions'] = []
  for (const { method, ceilingG, prices, assumption } of rows) {
    tables[method].push({ ceilingG, prices })
    if (assumption) assumptions.push({ method, ceilingG, note: assumption })
  }
  return { tables, assumptions }
}

/** A fingerprint of a table's rows: an editor's save is stale when the rows differ from what it showed. */
export function rateTableVersion(rows: readonly RateRow[]): string {
  const canonical = rows.map((row) => [row.ceilingG, ...REGIONS.map((region) => row.prices[region])])
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 32)
}

const samePrices = (a: RateRow, b: RateRow) =>
  REGIONS.every((region) => a.prices[region] === b.prices[region])

/** Reads the rate tables; invalidated on the same change notifications as settings. */
export function createShippingRatesService({ db }: { db: Database }): ShippingRatesService {
  const listeners = new Set<() => void>()
  const tables = cached(async () => toSnapshot(await readRows(db)))

  function invalidate() {
    tables.invalidate()
    for (const listener of listeners) listener()
  }

  return {
    get: tables.get,
    async snapshot(actor) {
      requireStaffAction(actor, 'manage_settings')
      const snapshot = toSnapshot(await readRows(db))
      return {
        ...snapshot,
        versions: {
          economic: rateTableVersion(snapshot.tables.economic),
          express: rateTableVersion(snapshot.tables.express),
        },
      }
    },
    async replace({ db: database, actor }, { method, rows, version }) {
      const admin = requireStaffAction(actor, 'manage_settings')
      if (rateTableProblems(method, rows).length > 0)
        throw new AppError('invalid', `The ${method} table is not usable`, { reason: 'ratesInvalid' })
      const result = await database.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${RATES_SAVE_LOCK})`)
        const current = await readRows(tx, method)
        if (rateTableVersion(current) !== version)
          throw new AppError('conflict', `The ${method} table changed since it was shown`, {
            reason: 'ratesChanged',
          })
        const old = new Map(current.map((row) => [row.ceilingG, row]))
        const next = new Map(rows.map((row) => [row.ceilingG, row]))
        const before: Record<string, unknown> = {}
        const after: Record<string, unknown> = {}
        for (const row of current) {
          const kept = next.get(row.ceilingG)
          if (!kept || !samePrices(kept, row)) before[row.ceilingG] = row.prices
        }
        for (const row of rows) {
          const was = old.get(row.ceilingG)
          if (!was || !samePrices(was, row)) after[row.ceilingG] = row.prices
        }
        if (Object.keys(before).length === 0 && Object.keys(after).length === 0)
          return { version, changed: false }
        await tx.delete(shippingRates).where(eq(shippingRates.method, method))
        await tx.insert(shippingRates).values(
          rows.map((row) => {
            const was = old.get(row.ceilingG)
            return {
              method,
              ceilingG: row.ceilingG,
              asia: row.prices.asia,
              europeCanadaMexico: row.prices.europe_canada_mexico,
              usa: row.prices.usa,
              centralSouthAmerica: row.prices.central_south_america,
              // A row staff left as it was keeps what its prices rest on; a row they set is theirs.
              assumption: was && samePrices(was, row) ? was.assumption : null,
            }
          }),
        )
        await recordAudit(tx, {
          actorId: admin.id,
          kind: 'rates.update',
          subject: { type: 'shipping_rates', id: method },
          before,
          after,
        })
        await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, '')`)
        return { version: rateTableVersion(rows), changed: true }
      })
      if (result.changed) invalidate()
      return result
    },
    invalidate,
    onInvalidate(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
