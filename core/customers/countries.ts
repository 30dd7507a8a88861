import { intlLocale } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'

/**
 * The countries an address may be in: ISO 3166-1 alpha-2 codes, as `addresses.country` stores
 * them. Every assigned code except Japan (we ship from Japan, never within it), places without a
 * postal service (Antarctica, Bouvet, Heard and McDonald, the French Southern Territories, South
 * Georgia, the US Minor Outlying Islands) and North Korea (no post from Japan). Names are never
 * stored: `Intl.DisplayNames` writes them in the page's language.
 */
// biome-ignore format: a table reads better fifteen to a line
export const COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ',
  'BA', 'BB', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR',
  'BS', 'BT', 'BW', 'BY', 'BZ', 'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM',
  'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ',
  'EC', 'EE', 'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA', 'GB',
  'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GT', 'GU', 'GW',
  'GY', 'HK', 'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS',
  'IT', 'JE', 'JM', 'JO', 'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KR', 'KW', 'KY', 'KZ', 'LA',
  'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY', 'MA', 'MC', 'MD', 'ME', 'MF',
  'MG', 'MH', 'MK', 'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW',
  'MX', 'MY', 'MZ', 'NA', 'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ',
  'OM', 'PA', 'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW', 'PY',
  'QA', 'RE', 'RO', 'RS', 'RU', 'RW', 'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ',
  'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS', 'ST', 'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TG',
  'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW', 'TZ', 'UA', 'UG', 'US',
  'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI', 'VN', 'VU', 'WF', 'WS', 'YE', 'YT', 'ZA', 'ZM',
  'ZW',
] as const

export type CountryCode = (typeof COUNTRY_CODES)[number]

const KNOWN = new Set<string>(COUNTRY_CODES)

export function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && KNOWN.has(value)
}

/** A country's name in `language` ("México", "Mexico"); the code itself if Intl has no name. */
export function countryName(code: string, language: Language): string {
  return new Intl.DisplayNames([intlLocale(language)], { type: 'region', fallback: 'code' }).of(code) ?? code
}

const cache = new Map<Language, { code: CountryCode; name: string }[]>()

/**
 * Every country as a select lists it, sorted by its name in `language`. Built on the server and
 * sent with the page, so the browser's own (possibly older) Intl data cannot differ from it.
 */
export function countryOptions(language: Language): { code: CountryCode; name: string }[] {
  let options = cache.get(language)
  if (!options) {
    const names = new Intl.DisplayNames([intlLocale(language)], { type: 'region', fallback: 'code' })
    const collator = new Intl.Collator(intlLocale(language))
    options = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      collator.compare(a.name, b.name),
    )
    cache.set(language, options)
  }
  return options
}
