import { isCountryCode } from '#core/customers/countries.ts'
import { type DestinationRules, methodsFor } from '#core/landed-cost/destination-rules.ts'
import {
  parseWeight,
  REGIONS,
  type Region,
  SHIPPING_METHODS,
  type ShippingMethod,
  WEIGHT_LIMITS,
} from '#core/pricing/pricing.ts'

/**
 * What the calculator form holds, as text (what a person typed), read from the query string so
 * the page works as a plain GET form before JavaScript, and a shared link reopens the same figures.
 */
export type CalculatorState = {
  price: string
  region: Region
  method: ShippingMethod
  weight: string
  /** The quote simulator's destination country (ISO 3166-1 alpha-2, core/customers/countries.ts). */
  country: string
  quotePrice: string
  quoteCount: string
  /** A method the country can use, when it can use any (core/landed-cost/destination-rules.ts). */
  quoteMethod: ShippingMethod
  quoteWeight: string
  /** Stored items past their free days, and how many days (docs/decisions/037). */
  storageItems: string
  storageDays: string
}

export const QUERY_KEYS = {
  price: 'price',
  region: 'region',
  method: 'method',
  weight: 'weight',
  country: 'country',
  quotePrice: 'qprice',
  quoteCount: 'qcount',
  quoteMethod: 'qmethod',
  quoteWeight: 'qweight',
  storageItems: 'sitems',
  storageDays: 'sdays',
} as const satisfies Record<keyof CalculatorState, string>

const MAX_TEXT = 32

/**
 * The country whose method rules a region of the shipping calculator follows: the USA region is
 * the USA and its territories, which meet one rule (Japan Post takes no goods for them); the
 * other regions hold countries with different rules and offer every method.
 */
export const REGION_COUNTRY: Record<Region, string | null> = {
  asia: null,
  europe_canada_mexico: null,
  usa: 'US',
  central_south_america: null,
}

/** The simulator's country when the query names none we ship to. */
export const DEFAULT_COUNTRY = 'MX'

/**
 * The form's state from the query. With the destinations' method rules (the rules in effect), a
 * method the chosen country cannot use is replaced by one it can, as the island does when the
 * visitor changes the country: the form posted without JavaScript gets the same answer.
 */
export function readCalculatorState(
  params: URLSearchParams,
  rules: Pick<DestinationRules, 'methods'> = { methods: {} },
): CalculatorState {
  const text = (key: string, fallback: string) => (params.get(key) ?? fallback).slice(0, MAX_TEXT)
  const region = pick(REGIONS, params.get(QUERY_KEYS.region), 'asia')
  const askedMethod = pick(SHIPPING_METHODS, params.get(QUERY_KEYS.method), 'economic')
  const regionCountry = REGION_COUNTRY[region]
  const method = (regionCountry && usableMethod(rules, regionCountry, askedMethod)) || askedMethod
  const askedCountry = params.get(QUERY_KEYS.country)?.trim().toUpperCase() ?? null
  const country = isCountryCode(askedCountry) ? askedCountry : DEFAULT_COUNTRY
  const askedQuoteMethod = pick(SHIPPING_METHODS, params.get(QUERY_KEYS.quoteMethod), 'economic')
  const quoteMethod = usableMethod(rules, country, askedQuoteMethod) ?? askedQuoteMethod
  const askedQuoteWeight = text(QUERY_KEYS.quoteWeight, String(WEIGHT_LIMITS[askedQuoteMethod].defaultG))
  return {
    price: text(QUERY_KEYS.price, ''),
    region,
    method,
    weight:
      method === askedMethod
        ? text(QUERY_KEYS.weight, String(WEIGHT_LIMITS[method].defaultG))
        : weightForReplacedMethod(
            method,
            text(QUERY_KEYS.weight, String(WEIGHT_LIMITS[askedMethod].defaultG)),
          ),
    country,
    quotePrice: text(QUERY_KEYS.quotePrice, ''),
    quoteCount: text(QUERY_KEYS.quoteCount, '1'),
    quoteMethod,
    quoteWeight:
      quoteMethod === askedQuoteMethod
        ? askedQuoteWeight
        : weightForReplacedMethod(quoteMethod, askedQuoteWeight),
    storageItems: text(QUERY_KEYS.storageItems, '0'),
    storageDays: text(QUERY_KEYS.storageDays, '0'),
  }
}

/**
 * The method to quote for `country`: `method` if the country can use it, otherwise the first it
 * can use; null when it can use none.
 */
export function usableMethod(
  rules: Pick<DestinationRules, 'methods'>,
  country: string,
  method: ShippingMethod,
): ShippingMethod | null {
  const choices = methodsFor(rules, country)
  if (choices.some((choice) => choice.method === method && choice.available)) return method
  return choices.find((choice) => choice.available)?.method ?? null
}

/** The weight typed for another method, kept if the new method takes it, else the new one's default. */
export function weightForReplacedMethod(method: ShippingMethod, weight: string): string {
  return parseWeight(method, weight).ok ? weight : String(WEIGHT_LIMITS[method].defaultG)
}

function pick<T extends string>(allowed: readonly T[], value: string | null, fallback: T): T {
  return allowed.find((candidate) => candidate === value) ?? fallback
}
