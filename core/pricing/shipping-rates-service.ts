import { cached } from '#core/shared/cached.ts'
import type { Database } from '#db/client.ts'
import { shippingRates } from '#db/schema/index.ts'
import type { RateRow, RateTables, ShippingMethod } from './pricing.ts'

export type RateTablesSnapshot = {
  tables: RateTables
  /** Rows whose prices rest on an assumption, with what was assumed. */
  assumptions: { method: ShippingMethod; ceilingG: number; note: string }[]
}

export type ShippingRatesService = {
  /** Both rate tables, sorted by ceiling, from the in-process cache when warm. */
  get(): Promise<RateTablesSnapshot>
  invalidate(): void
}

/** Reads the rate tables; invalidated on the same change notifications as settings. */
export function createShippingRatesService({ db }: { db: Database }): ShippingRatesService {
  async function load(): Promise<RateTablesSnapshot> {
    const rows = await db.select().from(shippingRates).orderBy(shippingRates.method, shippingRates.ceilingG)
    const tables: RateTables = { economic: [], express: [] }
    const assumptions: RateTablesSnapshot['assumptions'] = []
    for (const row of rows) {
      if (row.method !== 'economic' && row.method !== 'express') continue
      const rateRow: RateRow = {
        ceilingG: row.ceilingG,
        prices: {
          asia: row.asia,
          europe_canada_mexico: row.europeCanadaMexico,
          usa: row.usa,
          central_south_america: row.centralSouthAmerica,
        },
      }
      tables[row.method].push(rateRow)
      if (row.assumption)
        assumptions.push({ method: row.method, ceilingG: row.ceilingG, note: row.assumption })
    }
    return { tables, assumptions }
  }

  const tables = cached(load)
  return { get: tables.get, invalidate: tables.invalidate }
}
