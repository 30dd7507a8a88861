import type { RouterContextProvider } from 'react-router'
import { requestContext } from '#app/context.ts'
import type { InvoiceView } from '#core/billing/invoice-service.ts'
import { countryName } from '#core/customers/countries.ts'
import { listAddresses } from '#core/customers/profile-service.ts'
import type { ImportRulesService } from '#core/landed-cost/import-rules-service.ts'
import {
  customsRatesOf,
  type FrozenImportEstimate,
  importEstimateFor,
} from '#core/landed-cost/landed-cost.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'

/**
 * The import estimate of an open quote, for its customer (issue 30, ADR 046): the quote's item
 * lines at the quoted prices (not the service fee, not the shipping in Japan), to the country of
 * their default address (else their first), under the rules in effect today. The international
 * shipping is not known yet, so it is not counted. Without an address: say so, and where to add one.
 */
export type QuoteImportEstimate =
  | { kind: 'estimate'; frozen: FrozenImportEstimate; countryLabel: string; paidJpy: number }
  | { kind: 'noAddress' }

export async function quoteImportEstimate(
  context: Readonly<RouterContextProvider>,
  services: ServiceContext,
  quote: Pick<InvoiceView, 'lines' | 'yenRates' | 'totalJpy'>,
): Promise<QuoteImportEstimate> {
  const { importRules, settings, language } = context.get(requestContext)
  const book = await listAddresses(services)
  const home = book.find((address) => address.isDefault) ?? book[0]
  if (!home) return { kind: 'noAddress' }
  const [rules, config] = await Promise.all([importRules.inEffect(), settings.get()])
  const items = quote.lines.filter((line) => line.kind === 'item')
  const frozen = importEstimateFor(rules, home.country, {
    goodsJpy: items.reduce((sum, line) => sum + line.amountJpy, 0),
    shippingJpy: null,
    categories: Math.max(1, items.length),
    // The yen rate the quote was issued with; EUR beside today's.
    rates: customsRatesOf({ yenRates: quote.yenRates, customsRates: config.customsRates }),
  })
  return {
    kind: 'estimate',
    frozen,
    countryLabel: countryName(home.country, language),
    paidJpy: quote.totalJpy,
  }
}

/**
 * What the request form needs to estimate each item's taxes at the door as it is typed (issue
 * 31): the customer's home country (default address, else the first), its rule in effect today
 * and the rates thresholds are read with. Null without an address or without a rule there.
 */
export type HomeImportRules = {
  country: string
  countryLabel: string
  rules: { rules: Pick<Awaited<ReturnType<ImportRulesService['inEffect']>>['rules'], string> }
  rates: ReturnType<typeof customsRatesOf>
}

export async function homeImportRules(
  context: Readonly<RouterContextProvider>,
  services: ServiceContext,
): Promise<HomeImportRules | null> {
  const { importRules, settings, language } = context.get(requestContext)
  const book = await listAddresses(services)
  const home = book.find((address) => address.isDefault) ?? book[0]
  if (!home) return null
  const [inEffect, config] = await Promise.all([importRules.inEffect(), settings.get()])
  const rule = inEffect.rules[home.country]
  if (!rule) return null
  return {
    country: home.country,
    countryLabel: countryName(home.country, language),
    rules: { rules: { [home.country]: rule } },
    rates: customsRatesOf(config),
  }
}
