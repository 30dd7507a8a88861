import { and, desc, eq, gte, inArray, lt, ne } from 'drizzle-orm'
import { canUseMethod, type DestinationRules, rulesForDay } from '#core/landed-cost/destination-rules.ts'
import { dayOf } from '#core/landed-cost/import-rules.ts'
import { readAll } from '#core/landed-cost/import-rules-service.ts'
import {
  type CustomsRates,
  type FrozenImportEstimate,
  importEstimateFor,
  type RuleWarning,
  ruleWarnings,
} from '#core/landed-cost/landed-cost.ts'
import type { ShippingMethod } from '#core/pricing/pricing.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Executor } from '#db/client.ts'
import { invoiceLines, invoices, shipmentItems, shipments } from '#db/schema/index.ts'

/**
 * The import estimate of a shipment, as the customer meets it (issue 30, ADR 046): on the shipping
 * tab before asking to ship (with the rule's warnings for this year's earlier shipments) and
 * frozen on the shipping receipt the day it is issued. The goods are the items' paid prices
 * (their lines on the paid purchase quote), the shipping the box's price, the categories the
 * number of distinct items. The estimator itself is pure (core/landed-cost/landed-cost.ts); this
 * file reads what it needs from the database.
 */

/** The rules in effect on the day of `now`, read from the tables (inside a transaction: what it sees). */
export async function rulesInEffectAt(db: Executor, now: Date): Promise<DestinationRules> {
  return rulesForDay(await readAll(db), dayOf(now))
}

/**
 * Refuses a method the destination cannot use (Japan Post's economy to the USA since 27 August
 * 2025): `invalid`, reason `methodUnavailable`. Nothing is written by the caller.
 */
export function requireUsableMethod(rules: DestinationRules, country: string, method: ShippingMethod): void {
  if (!canUseMethod(rules, country, method)) {
    throw new AppError('invalid', `Method ${method} is not available to ${country}`, {
      reason: 'methodUnavailable',
    })
  }
}

export type PaidGoods = { goodsJpy: number; categories: number; unitsOfOneItem: number }

/**
 * What the customer paid for these items: each item's line on its paid purchase quote (the
 * newest, should there be two), price × quantity. An item without a paid line counts nothing.
 */
export async function paidGoodsOf(db: Executor, itemIds: readonly string[]): Promise<PaidGoods> {
  if (itemIds.length === 0) return { goodsJpy: 0, categories: 0, unitsOfOneItem: 0 }
  const rows = await db
    .select({
      itemId: invoiceLines.itemId,
      amountJpy: invoiceLines.amountJpy,
      quantity: invoiceLines.quantity,
    })
    .from(invoiceLines)
    .innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId))
    .where(
      and(
        inArray(invoiceLines.itemId, [...itemIds]),
        eq(invoiceLines.kind, 'item'),
        eq(invoices.kind, 'purchase'),
        eq(invoices.status, 'paid'),
      ),
    )
    .orderBy(desc(invoices.issuedAt))
  const seen = new Map<string, { amountJpy: number; quantity: number }>()
  for (const row of rows) {
    if (row.itemId && !seen.has(row.itemId))
      seen.set(row.itemId, { amountJpy: row.amountJpy, quantity: row.quantity })
  }
  let goodsJpy = 0
  let unitsOfOneItem = 0
  for (const line of seen.values()) {
    goodsJpy += line.amountJpy
    unitsOfOneItem = Math.max(unitsOfOneItem, line.quantity)
  }
  return { goodsJpy, categories: itemIds.length, unitsOfOneItem }
}

/** The items of a shipment (those in it now). */
async function itemsOfShipment(db: Executor, shipmentId: string): Promise<string[]> {
  const rows = await db
    .select({ itemId: shipmentItems.itemId })
    .from(shipmentItems)
    .where(and(eq(shipmentItems.shipmentId, shipmentId), eq(shipmentItems.active, true)))
  return rows.map((row) => row.itemId)
}

/**
 * The customer's earlier shipments to `country` this calendar year (UTC, as rules are dated), not
 * cancelled: how many, and their goods' value in the rule's currency (two decimals) at `rate`.
 */
export async function shipmentsThisYear(
  db: Executor,
  input: { userId: string; country: string; now: Date; rate: number; excludeShipmentId?: string },
): Promise<{ count: number; value: number }> {
  const year = input.now.getUTCFullYear()
  const rows = await db
    .select({ id: shipments.id })
    .from(shipments)
    .where(
      and(
        eq(shipments.userId, input.userId),
        eq(shipments.country, input.country),
        ne(shipments.status, 'cancelled'),
        gte(shipments.requestedAt, new Date(Date.UTC(year, 0, 1))),
        lt(shipments.requestedAt, new Date(Date.UTC(year + 1, 0, 1))),
        input.excludeShipmentId ? ne(shipments.id, input.excludeShipmentId) : undefined,
      ),
    )
  if (rows.length === 0) return { count: 0, value: 0 }
  const items = await db
    .select({ itemId: shipmentItems.itemId })
    .from(shipmentItems)
    .where(
      inArray(
        shipmentItems.shipmentId,
        rows.map((row) => row.id),
      ),
    )
  const goods = await paidGoodsOf(db, [...new Set(items.map((item) => item.itemId))])
  return { count: rows.length, value: Math.round(goods.goodsJpy * input.rate * 100) / 100 }
}

/**
 * The estimate for items the customer chose on the shipping tab, with the rule's warnings (this
 * year's earlier shipments to the country, the largest quantity of one item).
 */
export async function chosenItemsEstimate(
  db: Executor,
  input: {
    userId: string
    itemIds: readonly string[]
    country: string
    shippingJpy: number
    rules: DestinationRules
    rates: CustomsRates
    now: Date
  },
): Promise<{ frozen: FrozenImportEstimate; warnings: RuleWarning[] }> {
  const goods = await paidGoodsOf(db, input.itemIds)
  const frozen = importEstimateFor(input.rules, input.country, {
    goodsJpy: goods.goodsJpy,
    shippingJpy: input.shippingJpy,
    categories: Math.max(1, goods.categories),
    rates: input.rates,
  })
  const rule = input.rules.rules[input.country]?.rule ?? null
  const year = rule
    ? await shipmentsThisYear(db, {
        userId: input.userId,
        country: input.country,
        now: input.now,
        rate: input.rates[rule.currency],
      })
    : { count: 0, value: 0 }
  const warnings = ruleWarnings({
    rule,
    estimate: frozen.estimate,
    shipmentsThisYear: year.count,
    valueThisYear: year.value,
    unitsOfOneItem: goods.unitsOfOneItem,
  })
  return { frozen, warnings }
}

/**
 * The estimate a shipping receipt freezes (invoices.importEstimate): the shipment's items at their
 * paid prices and the box's price, under the rules in effect on the day it is issued, read in the
 * issuing transaction.
 */
export async function receiptImportEstimate(
  tx: Executor,
  input: { shipmentId: string; country: string; shippingJpy: number; rates: CustomsRates; issuedAt: Date },
): Promise<FrozenImportEstimate> {
  const rules = await rulesInEffectAt(tx, input.issuedAt)
  const goods = await paidGoodsOf(tx, await itemsOfShipment(tx, input.shipmentId))
  return importEstimateFor(rules, input.country, {
    goodsJpy: goods.goodsJpy,
    shippingJpy: input.shippingJpy,
    categories: Math.max(1, goods.categories),
    rates: input.rates,
  })
}

/** The estimate a receipt froze when it was issued; null: none (issued before issue 30, or a quote). */
export async function frozenEstimateOf(
  db: Executor,
  invoiceId: string,
): Promise<FrozenImportEstimate | null> {
  const [row] = await db
    .select({ importEstimate: invoices.importEstimate })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
  const stored = row?.importEstimate
  if (!stored || typeof stored !== 'object' || !('estimate' in stored) || !('country' in stored)) return null
  return stored as unknown as FrozenImportEstimate
}
