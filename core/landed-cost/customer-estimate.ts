import { asc, desc, eq } from 'drizzle-orm'
import type { Executor } from '#db/client.ts'
import { addresses } from '#db/schema/index.ts'
import { rulesForDay } from './destination-rules.ts'
import { dayOf } from './import-rules.ts'
import { readAll } from './import-rules-service.ts'
import { type CustomsRates, type FrozenImportEstimate, importEstimateFor } from './landed-cost.ts'

/**
 * The import estimate as the customer's notifications carry it (issue 30, ADR 046): the e-mails
 * that carry amounts add one line from these params (server/order-emails.ts). Only when the rule
 * gives an amount: no rule for the country, or a formal entry, adds nothing.
 */
export function importEstimateParams(frozen: FrozenImportEstimate): Record<string, string | number> {
  const { estimate } = frozen
  if (estimate.kind !== 'estimate') return {}
  return {
    importJpy: estimate.importJpy,
    importCountry: frozen.country,
    importCollector: estimate.collectedBy,
  }
}

/** The country of the customer's default address (else their first); null: no address yet. */
export async function homeCountryOf(db: Executor, userId: string): Promise<string | null> {
  const [home] = await db
    .select({ country: addresses.country })
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.isDefault), asc(addresses.createdAt))
    .limit(1)
  return home?.country ?? null
}

/**
 * A quote's estimate as its notification's params, read in the quoting transaction: the goods at
 * the quoted prices to the customer's home country under the rules in effect that day, the
 * shipping not known yet. Nothing without an address.
 */
export async function quoteEstimateParams(
  tx: Executor,
  input: { userId: string; goodsJpy: number; categories: number; rates: CustomsRates; at: Date },
): Promise<Record<string, string | number>> {
  const country = await homeCountryOf(tx, input.userId)
  if (!country) return {}
  const rules = rulesForDay(await readAll(tx), dayOf(input.at))
  return importEstimateParams(
    importEstimateFor(rules, country, {
      goodsJpy: input.goodsJpy,
      shippingJpy: null,
      categories: Math.max(1, input.categories),
      rates: input.rates,
    }),
  )
}
