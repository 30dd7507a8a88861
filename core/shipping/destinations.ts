import { type Destination, findDestination, type Region } from '#core/pricing/pricing.ts'

/**
 * Every country an address may be in (core/customers/countries.ts) as the rate tables see it:
 * the spec's named destinations first (core/pricing/pricing.ts: Mexico, Chile… and the four sent
 * by courier via the USA), then Japan Post's EMS zones for the rest (research: Asia; Oceania,
 * Canada, Mexico, the Middle East and Europe; the USA with its territories; Central and South
 * America and Africa). Pure.
 */

// biome-ignore format: a table reads better as lines of codes
const ASIA = new Set([
  'CN', 'KR', 'TW', 'HK', 'MO', 'MN',
  'BN', 'KH', 'ID', 'LA', 'MY', 'MM', 'PH', 'SG', 'TH', 'TL', 'VN',
  'BD', 'BT', 'IN', 'MV', 'NP', 'PK', 'LK',
])
/** US territories travel as the USA. */
const USA = new Set(['US', 'PR', 'GU', 'AS', 'MP', 'VI', 'UM'])
// biome-ignore format: a table reads better as lines of codes
const LATIN_AMERICA_AND_AFRICA = new Set([
  // Central America, the Caribbean and South America (Mexico is Japan Post's zone with Canada).
  'BZ', 'CR', 'SV', 'GT', 'HN', 'NI', 'PA',
  'AG', 'AI', 'AW', 'BB', 'BL', 'BM', 'BQ', 'BS', 'CU', 'CW', 'DM', 'DO', 'GD', 'GP', 'HT', 'JM',
  'KN', 'KY', 'LC', 'MF', 'MQ', 'MS', 'SX', 'TC', 'TT', 'VC', 'VG',
  'AR', 'BO', 'BR', 'CL', 'CO', 'EC', 'FK', 'GF', 'GY', 'PE', 'PY', 'SR', 'UY', 'VE',
  // Africa (Egypt and the Maghreb included, as Japan Post counts them).
  'AO', 'BF', 'BI', 'BJ', 'BW', 'CD', 'CF', 'CG', 'CI', 'CM', 'CV', 'DJ', 'DZ', 'EG', 'EH', 'ER',
  'ET', 'GA', 'GH', 'GM', 'GN', 'GQ', 'GW', 'KE', 'KM', 'LR', 'LS', 'LY', 'MA', 'MG', 'ML', 'MR',
  'MU', 'MW', 'MZ', 'NA', 'NE', 'NG', 'RE', 'RW', 'SC', 'SD', 'SH', 'SL', 'SN', 'SO', 'SS', 'ST',
  'SZ', 'TD', 'TG', 'TN', 'TZ', 'UG', 'YT', 'ZA', 'ZM', 'ZW',
])

/** The destination of an address's country (ISO 3166-1 alpha-2), or null for a code we do not know. */
export function destinationForCountry(country: string): Destination | null {
  if (!/^[A-Z]{2}$/.test(country) || country === 'JP') return null
  const named = findDestination(country)
  if (named) return named
  const region: Region = ASIA.has(country)
    ? 'asia'
    : USA.has(country)
      ? 'usa'
      : LATIN_AMERICA_AND_AFRICA.has(country)
        ? 'central_south_america'
        : 'europe_canada_mexico'
  return { code: country, region, route: 'direct' }
}
