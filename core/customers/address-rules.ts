import { type CountryCode as PhoneCountry, parsePhoneNumberFromString } from 'libphonenumber-js'
import type { CountryCode } from './countries.ts'

/**
 * What each country's post asks of an address (ADR 038): the shape of its postal code, whether
 * the code and the region (state, province…) are required, and for a few countries the regions
 * themselves. Pure and isomorphic: the address form runs it in the browser, the service again.
 *
 * The facts are the ones the postal services publish and that address forms everywhere use:
 * which parts a label needs ("require") and the postal-code patterns. Where a country has no
 * entry, a postal code is optional and anything of letters, digits, spaces and hyphens passes.
 */

export type RegionKind = 'state' | 'province' | 'department' | 'region'

type CountryRule = {
  /** The postal code, whole, after upper-casing and trimming. */
  postal?: RegExp
  /** An example of a good postal code, for the message. */
  example?: string
  postalRequired?: boolean
  regionRequired?: boolean
  regionKind?: RegionKind
  /** Accepted regions: code → name; either is accepted, the code is stored. */
  regions?: Record<string, string>
}

/** "NY, New York": what a message about a listed region shows as an example. */
function regionExample(regions: Record<string, string> | undefined, code: string): string | null {
  const name = regions?.[code]
  return name ? `${code}, ${name}` : null
}

const US_STATES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
  // Military post (APO/FPO) and the territories, which some write as a state of the US.
  AA: 'Armed Forces Americas',
  AE: 'Armed Forces Europe',
  AP: 'Armed Forces Pacific',
  AS: 'American Samoa',
  GU: 'Guam',
  MP: 'Northern Mariana Islands',
  PR: 'Puerto Rico',
  VI: 'Virgin Islands',
}

const CA_PROVINCES: Record<string, string> = {
  AB: 'Alberta',
  BC: 'British Columbia',
  MB: 'Manitoba',
  NB: 'New Brunswick',
  NL: 'Newfoundland and Labrador',
  NS: 'Nova Scotia',
  NT: 'Northwest Territories',
  NU: 'Nunavut',
  ON: 'Ontario',
  PE: 'Prince Edward Island',
  QC: 'Quebec',
  SK: 'Saskatchewan',
  YT: 'Yukon',
}

const AU_STATES: Record<string, string> = {
  ACT: 'Australian Capital Territory',
  NSW: 'New South Wales',
  NT: 'Northern Territory',
  QLD: 'Queensland',
  SA: 'South Australia',
  TAS: 'Tasmania',
  VIC: 'Victoria',
  WA: 'Western Australia',
}

const BR_STATES: Record<string, string> = {
  AC: 'Acre',
  AL: 'Alagoas',
  AP: 'Amapá',
  AM: 'Amazonas',
  BA: 'Bahia',
  CE: 'Ceará',
  DF: 'Distrito Federal',
  ES: 'Espírito Santo',
  GO: 'Goiás',
  MA: 'Maranhão',
  MT: 'Mato Grosso',
  MS: 'Mato Grosso do Sul',
  MG: 'Minas Gerais',
  PA: 'Pará',
  PB: 'Paraíba',
  PR: 'Paraná',
  PE: 'Pernambuco',
  PI: 'Piauí',
  RJ: 'Rio de Janeiro',
  RN: 'Rio Grande do Norte',
  RS: 'Rio Grande do Sul',
  RO: 'Rondônia',
  RR: 'Roraima',
  SC: 'Santa Catarina',
  SP: 'São Paulo',
  SE: 'Sergipe',
  TO: 'Tocantins',
}

const digits = (n: number) => new RegExp(`^\\d{${n}}$`)
const US_ZIP = /^\d{5}(?:[ -]\d{4})?$/

// biome-ignore format: one country a line reads best
const RULES: Partial<Record<CountryCode, CountryRule>> = {
  // The Americas first: most of our customers.
  US: { postal: US_ZIP, example: '10001', postalRequired: true, regionRequired: true, regionKind: 'state', regions: US_STATES },
  CA: { postal: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/, example: 'K1A 0B1', postalRequired: true, regionRequired: true, regionKind: 'province', regions: CA_PROVINCES },
  MX: { postal: digits(5), example: '03100', postalRequired: true, regionRequired: true, regionKind: 'state' },
  BR: { postal: /^\d{5}-?\d{3}$/, example: '01310-100', postalRequired: true, regionRequired: true, regionKind: 'state', regions: BR_STATES },
  AR: { postal: /^(?:[A-HJ-NP-Z]?\d{4}(?:[A-Z]{3})?)$/, example: 'C1425' },
  CL: { postal: digits(7), example: '7500000' },
  PE: { postal: digits(5), example: '15074' },
  CO: { postal: digits(6), example: '110111', regionRequired: true, regionKind: 'department' },
  EC: { postal: digits(6), example: '170150' },
  BO: {},
  PY: { postal: /^\d{4}(?:\d{2})?$/, example: '1209' },
  UY: { postal: digits(5), example: '11000' },
  VE: { postal: digits(4), example: '1010', regionRequired: true, regionKind: 'state' },
  CR: { postal: /^(?:\d{5}|\d{3}-\d{4})$/, example: '10101', regionRequired: true, regionKind: 'province' },
  SV: { postal: /^(?:CP )?[1-3][1-7][0-2]\d$/, example: 'CP 1101', regionRequired: true, regionKind: 'department' },
  GT: { postal: digits(5), example: '01001' },
  HN: { postal: digits(5), example: '11101', regionRequired: true, regionKind: 'department' },
  NI: { postal: digits(5), example: '11001' },
  PA: { postal: digits(4), example: '0801' },
  DO: { postal: digits(5), example: '10101' },
  PR: { postal: /^00[679]\d{2}(?:[ -]\d{4})?$/, example: '00901', postalRequired: true },
  CU: { postal: digits(5), example: '10400' },
  JM: { regionRequired: true, regionKind: 'region' },
  // Europe.
  ES: { postal: /^(?:0[1-9]|[1-4]\d|5[0-2])\d{3}$/, example: '28013', postalRequired: true, regionRequired: true, regionKind: 'province' },
  PT: { postal: /^\d{4}-\d{3}$/, example: '1100-148', postalRequired: true },
  FR: { postal: /^\d{2} ?\d{3}$/, example: '75008', postalRequired: true },
  DE: { postal: digits(5), example: '10115', postalRequired: true },
  IT: { postal: digits(5), example: '00184', postalRequired: true, regionRequired: true, regionKind: 'province' },
  GB: { postal: /^(?:GIR ?0AA|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})$/, example: 'SW1A 1AA', postalRequired: true },
  IE: { postal: /^[\dA-Z]{3} ?[\dA-Z]{4}$/, example: 'D02 X285' },
  NL: { postal: /^\d{4} ?[A-Z]{2}$/, example: '1012 AB', postalRequired: true },
  BE: { postal: digits(4), example: '1000', postalRequired: true },
  AT: { postal: digits(4), example: '1010', postalRequired: true },
  CH: { postal: digits(4), example: '8001', postalRequired: true },
  LU: { postal: digits(4), example: '1009', postalRequired: true },
  DK: { postal: digits(4), example: '1050', postalRequired: true },
  NO: { postal: digits(4), example: '0150', postalRequired: true },
  SE: { postal: /^\d{3} ?\d{2}$/, example: '111 22', postalRequired: true },
  FI: { postal: digits(5), example: '00100', postalRequired: true },
  PL: { postal: /^\d{2}-\d{3}$/, example: '00-001', postalRequired: true },
  CZ: { postal: /^\d{3} ?\d{2}$/, example: '110 00' },
  SK: { postal: /^\d{3} ?\d{2}$/, example: '811 01' },
  GR: { postal: /^\d{3} ?\d{2}$/, example: '105 57', postalRequired: true },
  HU: { postal: digits(4), example: '1051', postalRequired: true },
  RO: { postal: digits(6), example: '010011' },
  RU: { postal: digits(6), example: '101000', postalRequired: true, regionRequired: true, regionKind: 'region' },
  UA: { postal: digits(5), example: '01001', postalRequired: true, regionRequired: true, regionKind: 'region' },
  TR: { postal: digits(5), example: '34000', postalRequired: true },
  // Asia and Oceania.
  AU: { postal: digits(4), example: '2000', postalRequired: true, regionRequired: true, regionKind: 'state', regions: AU_STATES },
  NZ: { postal: digits(4), example: '6011', postalRequired: true },
  CN: { postal: digits(6), example: '100000', postalRequired: true, regionRequired: true, regionKind: 'province' },
  KR: { postal: digits(5), example: '03187', postalRequired: true, regionRequired: true, regionKind: 'province' },
  TW: { postal: /^\d{3}(?:\d{2,3})?$/, example: '100', postalRequired: true, regionRequired: true, regionKind: 'region' },
  HK: { regionRequired: true, regionKind: 'region' },
  IN: { postal: digits(6), example: '110001', postalRequired: true, regionRequired: true, regionKind: 'state' },
  ID: { postal: digits(5), example: '10110', regionRequired: true, regionKind: 'province' },
  SG: { postal: digits(6), example: '049145', postalRequired: true },
  MY: { postal: digits(5), example: '50000', postalRequired: true },
  TH: { postal: digits(5), example: '10200' },
  PH: { postal: digits(4), example: '1000' },
  VN: { postal: /^\d{5,6}$/, example: '100000' },
  AE: { regionRequired: true, regionKind: 'region' },
  IL: { postal: /^\d{5}(?:\d{2})?$/, example: '6100000' },
  SA: { postal: digits(5), example: '11564' },
  ZA: { postal: digits(4), example: '0001', postalRequired: true },
}

/** What the form needs to know of a country: the region's name and whether each part is required. */
export function addressRule(country: string): {
  postalRequired: boolean
  regionRequired: boolean
  regionKind: RegionKind
  example: string | null
  regionExample: string | null
} {
  const rule = RULES[country as CountryCode] ?? {}
  return {
    postalRequired: rule.postalRequired ?? false,
    regionRequired: rule.regionRequired ?? false,
    regionKind: rule.regionKind ?? 'region',
    example: rule.example ?? null,
    regionExample: regionExample(rule.regions, REGION_EXAMPLES[country] ?? ''),
  }
}

const REGION_EXAMPLES: Record<string, string> = { US: 'NY', CA: 'ON', AU: 'NSW', BR: 'SP' }

/** A postal code as the post writes it: upper case, single spaces, trimmed. */
export function normalizePostalCode(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toUpperCase()
}

/** Compares names without case, accents or punctuation ("São Paulo" = "sao paulo"). */
function fold(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase()
}

/**
 * The region as stored: for a country with a list, its code ("california" → "CA"), or null
 * when it is not one of them; otherwise as typed.
 */
export function normalizeRegion(country: string, value: string): string | null {
  const regions = RULES[country as CountryCode]?.regions
  if (!regions) return value
  const wanted = fold(value)
  for (const [code, name] of Object.entries(regions)) {
    if (fold(code) === wanted || fold(name) === wanted) return code
  }
  return null
}

export type AddressProblem =
  | { field: 'postalCode'; error: 'postalCodeRequired' | 'postalCodeFormat' }
  | { field: 'region'; error: 'regionRequired' | 'regionUnknown' }
  | { field: 'phone'; error: 'phoneInvalid' | 'phoneCountry' }

/**
 * Checks the parts of an address that depend on its country and returns what to store, or the
 * problems (one per field). The phone is kept as E.164 (+5215512345678): read with the address's
 * country for a number written without its country code.
 */
export function checkAddressForCountry(input: {
  country: string
  region: string | undefined
  postalCode: string | undefined
  phone: string
}):
  | { ok: true; region: string | undefined; postalCode: string | undefined; phone: string }
  | { ok: false; problems: AddressProblem[] } {
  const rule = RULES[input.country as CountryCode] ?? {}
  const problems: AddressProblem[] = []
  let postalCode = input.postalCode === undefined ? undefined : normalizePostalCode(input.postalCode)
  if (postalCode === undefined || postalCode === '') {
    postalCode = undefined
    if (rule.postalRequired) problems.push({ field: 'postalCode', error: 'postalCodeRequired' })
  } else if (rule.postal && !rule.postal.test(postalCode)) {
    problems.push({ field: 'postalCode', error: 'postalCodeFormat' })
  }
  let region = input.region?.trim() || undefined
  if (region === undefined) {
    if (rule.regionRequired) problems.push({ field: 'region', error: 'regionRequired' })
  } else {
    const known = normalizeRegion(input.country, region)
    if (known === null) problems.push({ field: 'region', error: 'regionUnknown' })
    else region = known
  }
  const phone = normalizePhone(input.phone, input.country)
  if (typeof phone !== 'string') problems.push({ field: 'phone', error: phone.error })
  if (problems.length > 0 || typeof phone !== 'string') return { ok: false, problems }
  return { ok: true, region, postalCode, phone }
}

/**
 * A phone number in E.164, read as written ("+52 55 1234 5678") or, without a country code, as
 * a number of `country` ("55 1234 5678" in Mexico). `phoneInvalid` when it is not a number that
 * can exist; `phoneCountry` when it has no country code and is not one of `country`.
 */
export function normalizePhone(
  value: string,
  country?: string,
): string | { error: 'phoneInvalid' | 'phoneCountry' } {
  const trimmed = value.trim()
  const international = trimmed.startsWith('+') || trimmed.startsWith('00')
  const written = trimmed.startsWith('00') ? `+${trimmed.slice(2)}` : trimmed
  const parsed = parsePhoneNumberFromString(
    written,
    international || !country ? undefined : { defaultCountry: country as PhoneCountry },
  )
  if (!parsed?.isValid()) return { error: international || !country ? 'phoneInvalid' : 'phoneCountry' }
  return parsed.number
}

/** A stored phone for reading ("+52 55 1234 5678"); what was stored when it cannot be read. */
export function formatPhone(stored: string): string {
  const parsed = parsePhoneNumberFromString(stored)
  return parsed?.isValid() ? parsed.formatInternational() : stored
}
