/**
 * Carriers and tracking numbers (docs/decisions/030). Japan Post's international services (EMS,
 * registered small packets, parcels) use the UPU S10 number: two letters, eight digits, a check
 * digit and the country (`EE123456785JP`); we check its shape and its check digit, so a typo is
 * caught before the customer gets a link that finds nothing. The couriers that carry the last leg
 * via the USA have their own shapes: letters and digits, 8 to 40. Pure and isomorphic.
 */

export const CARRIERS = ['japan_post', 'dhl', 'fedex', 'ups', 'usps'] as const
export type Carrier = (typeof CARRIERS)[number]

export function isCarrier(value: unknown): value is Carrier {
  return CARRIERS.includes(value as Carrier)
}

/** What staff typed, as the carrier prints it: capitals, no spaces or dashes. */
export function normaliseTrackingNumber(value: string): string {
  return value
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s-]+/g, '')
}

const S10 = /^([A-Z]{2})(\d{8})(\d)([A-Z]{2})$/
const S10_WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7]

/** The S10 check digit of eight serial digits. */
export function s10CheckDigit(serial: string): number {
  const sum = [...serial].reduce(
    (total, digit, index) => total + Number(digit) * (S10_WEIGHTS[index] ?? 0),
    0,
  )
  const check = 11 - (sum % 11)
  return check === 10 ? 0 : check === 11 ? 5 : check
}

export type TrackingProblem =
  | 'trackingRequired'
  | 'trackingShape'
  | 'trackingJapanPost'
  | 'trackingCheckDigit'

/** The number if it fits the carrier, else why not. */
export function checkTrackingNumber(
  carrier: Carrier,
  raw: string,
): { ok: true; number: string } | { ok: false; problem: TrackingProblem } {
  const number = normaliseTrackingNumber(raw)
  if (number === '') return { ok: false, problem: 'trackingRequired' }
  if (carrier === 'japan_post') {
    const match = S10.exec(number)
    if (match?.[4] !== 'JP') return { ok: false, problem: 'trackingJapanPost' }
    if (s10CheckDigit(match[2] ?? '') !== Number(match[3]))
      return { ok: false, problem: 'trackingCheckDigit' }
    return { ok: true, number }
  }
  if (!/^[A-Z0-9]{8,40}$/.test(number) || /^(.)\1+$/.test(number))
    return { ok: false, problem: 'trackingShape' }
  return { ok: true, number }
}

/** Where the customer follows the parcel, in their language where the carrier has it. */
export function trackingUrl(carrier: Carrier, number: string, language: 'es' | 'en'): string {
  const code = encodeURIComponent(number)
  switch (carrier) {
    case 'japan_post':
      return `https://trackings.post.japanpost.jp/services/srv/search/direct?reqCodeNo1=${code}&searchKind=S002&locale=en`
    case 'dhl':
      return `https://www.dhl.com/${language === 'es' ? 'mx-es' : 'us-en'}/home/tracking.html?tracking-id=${code}`
    case 'fedex':
      return `https://www.fedex.com/fedextrack/?trknbr=${code}`
    case 'ups':
      return `https://www.ups.com/track?loc=${language === 'es' ? 'es_MX' : 'en_US'}&tracknum=${code}`
    case 'usps':
      return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${code}`
  }
}

/** Brand names: the same in every language. */
export const CARRIER_NAMES: Record<Carrier, string> = {
  japan_post: 'Japan Post',
  dhl: 'DHL',
  fedex: 'FedEx',
  ups: 'UPS',
  usps: 'USPS',
}
