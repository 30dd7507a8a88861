import {
  DESTINATIONS,
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
  country: string
  quotePrice: string
  quoteCount: string
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

export function readCalculatorState(params: URLSearchParams): CalculatorState {
  const text = (key: string, fallback: string) => (params.get(key) ?? fallback).slice(0, MAX_TEXT)
  const method = pick(SHIPPING_METHODS, params.get(QUERY_KEYS.method), 'economic')
  const quoteMethod = pick(SHIPPING_METHODS, params.get(QUERY_KEYS.quoteMethod), 'economic')
  return {
    price: text(QUERY_KEYS.price, ''),
    region: pick(REGIONS, params.get(QUERY_KEYS.region), 'asia'),
    method,
    weight: text(QUERY_KEYS.weight, String(WEIGHT_LIMITS[method].defaultG)),
    country: pick(
      DESTINATIONS.map((destination) => destination.code),
      params.get(QUERY_KEYS.country),
      'MX',
    ),
    quotePrice: text(QUERY_KEYS.quotePrice, ''),
    quoteCount: text(QUERY_KEYS.quoteCount, '1'),
    quoteMethod,
    quoteWeight: text(QUERY_KEYS.quoteWeight, String(WEIGHT_LIMITS[quoteMethod].defaultG)),
    storageItems: text(QUERY_KEYS.storageItems, '0'),
    storageDays: text(QUERY_KEYS.storageDays, '0'),
  }
}

function pick<T extends string>(allowed: readonly T[], value: string | null, fallback: T): T {
  return allowed.find((candidate) => candidate === value) ?? fallback
}
