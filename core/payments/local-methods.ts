/**
 * The Latin-American payment methods we offer through dLocal (docs/decisions/051), per country:
 * what the customer picks on the payment panel, dLocal's `payment_method_id` and flow, and what
 * the customer gets back. `voucher`/`transfer`/`qr` are asynchronous: a reference or code is shown
 * and paid later (or never: it expires); `redirect` sends the customer to the bank's or dLocal's
 * page and comes back.
 *
 * The codes are dLocal's published ones; an account may not have every method enabled (dLocal
 * answers 4xx `paymentRefused`, and the customer can pick another method).
 */
export type LocalMethodKind = 'voucher' | 'transfer' | 'qr' | 'redirect' | 'card'

export type LocalMethod = {
  /** Ours, in forms and on payment rows. */
  id: LocalMethodId
  /** dLocal's payment_method_id. */
  code: string
  flow: 'DIRECT' | 'REDIRECT'
  kind: LocalMethodKind
}

export const LOCAL_METHOD_IDS = ['oxxo', 'spei', 'webpay', 'pse', 'pagoefectivo', 'pix', 'card'] as const
export type LocalMethodId = (typeof LOCAL_METHOD_IDS)[number]

const card: LocalMethod = { id: 'card', code: 'CARD', flow: 'REDIRECT', kind: 'card' }

/** Country (ISO 3166-1 alpha-2) → its local currency, with its minor units, and its methods. */
export const LOCAL_PAYMENT_COUNTRIES = {
  MX: {
    currency: 'MXN',
    decimals: 2,
    methods: [
      { id: 'oxxo', code: 'OX', flow: 'DIRECT', kind: 'voucher' },
      { id: 'spei', code: 'SE', flow: 'DIRECT', kind: 'transfer' },
      card,
    ],
  },
  CL: {
    currency: 'CLP',
    decimals: 0,
    methods: [{ id: 'webpay', code: 'WP', flow: 'REDIRECT', kind: 'redirect' }, card],
  },
  CO: {
    currency: 'COP',
    decimals: 2,
    methods: [{ id: 'pse', code: 'PC', flow: 'REDIRECT', kind: 'redirect' }, card],
  },
  PE: {
    currency: 'PEN',
    decimals: 2,
    methods: [{ id: 'pagoefectivo', code: 'EF', flow: 'DIRECT', kind: 'voucher' }, card],
  },
  BR: {
    currency: 'BRL',
    decimals: 2,
    methods: [{ id: 'pix', code: 'PIX', flow: 'DIRECT', kind: 'qr' }, card],
  },
} as const satisfies Record<string, { currency: string; decimals: number; methods: LocalMethod[] }>

export type LocalCountry = keyof typeof LOCAL_PAYMENT_COUNTRIES
export const LOCAL_COUNTRIES = Object.keys(LOCAL_PAYMENT_COUNTRIES) as LocalCountry[]

export function isLocalCountry(value: unknown): value is LocalCountry {
  return typeof value === 'string' && Object.hasOwn(LOCAL_PAYMENT_COUNTRIES, value)
}

/** The methods a customer in this country may use; none for a country we do not serve. */
export function localMethodsFor(country: string | null | undefined): LocalMethod[] {
  return isLocalCountry(country) ? [...LOCAL_PAYMENT_COUNTRIES[country].methods] : []
}

export function localMethod(
  country: string | null | undefined,
  id: string | null | undefined,
): LocalMethod | null {
  return localMethodsFor(country).find((method) => method.id === id) ?? null
}

/** Whether the customer pays later with what we show them (a voucher, a transfer reference, a QR code). */
export function isAsyncMethod(kind: LocalMethodKind): boolean {
  return kind === 'voucher' || kind === 'transfer' || kind === 'qr'
}

/** How the customer and staff see each method (brand names: the same in both languages). */
export const LOCAL_METHOD_LABELS: Record<LocalMethodId, string> = {
  oxxo: 'OXXO',
  spei: 'SPEI',
  webpay: 'Webpay',
  pse: 'PSE',
  pagoefectivo: 'PagoEfectivo',
  pix: 'PIX',
  card: 'Card',
}

/** A local amount in minor units, written out in the reader's language (es-419 / en-US). */
export function formatLocal(amountMinor: number, currency: string, language: 'es' | 'en'): string {
  const decimals =
    Object.values(LOCAL_PAYMENT_COUNTRIES).find((country) => country.currency === currency)?.decimals ?? 2
  return new Intl.NumberFormat(language === 'en' ? 'en-US' : 'es-419', {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(amountMinor / 10 ** decimals)
}
