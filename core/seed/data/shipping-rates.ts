import type { Region, ShippingMethod } from '#core/pricing/pricing.ts'

/**
 * The seeded shipping rate tables, derived from Japan Post's published tariffs.
 *
 * Formulas (they reproduce the specification's samples exactly):
 *   express  = (EMS tariff + 500 yen handling) × 1.1
 *   economic = (airmail small-packet tariff + 460 yen registration + 500 yen handling) × 1.1
 * Every tariff is a multiple of 10 yen, so the results are whole yen without rounding.
 *
 * Regions → Japan Post zones:
 *   asia → zone 2 (Asia except China, Korea, Taiwan; zone 1 is cheaper, so Asia is priced at
 *     zone 2 and never undercharges) · europe_canada_mexico → zone 3 (Oceania, Canada, Mexico,
 *     Middle East, Europe) · usa → zone 4 · central_south_america → zone 5 (Central and South
 *     America except Mexico, and Africa).
 *
 * Sources:
 *   EMS, all zones, every weight step (since 2022-06-01):
 *     https://www.post.japanpost.jp/send/oversea/charge/list-ems/all_en.html, as transcribed by
 *     github.com/raphaelsuzuki/japan-post-ems-for-woocommerce (japan-post-ems-for-woocommerce.php)
 *     and, for zones 2–4 at 500, 1000, 1500, 2000, 3000, 5000 g, independently by
 *     github.com/kakunikensuke/japan-proxy-cost (data/shipping-ems.json, read 2026-08-07);
 *     both agree on every weight they share.
 *   Small packet, airmail, zones 1–4 (100 g steps since 2021-04-01, unchanged in 2022):
 *     https://www.post.japanpost.jp/send/oversea/charge/list-normal/zone1_en.html, as transcribed
 *     by kakunikensuke/japan-proxy-cost (data/shipping-post.json, read 2026-10-02): linear,
 *     zone 2: 380 yen for 100 g + 120 per further 100 g; zone 3: 510 + 180; zone 4: 830 + 210.
 *   Small packet to zone 5: NOT FOUND in any source we could read. ASSUMPTION: 1070 yen at 300 g,
 *     which is what the specification's sample (2233 yen at 300 g) implies, + 200 yen per further
 *     100 g (between zone 3's 180 and zone 4's 210). Rows resting on it are marked in the
 *     database; replace them with Japan Post's zone 5 table when it is at hand.
 */

type ZonePrices = Record<Region, number>

export const EXPRESS_HANDLING_JPY = 500
export const ECONOMIC_REGISTRATION_JPY = 460
export const ECONOMIC_HANDLING_JPY = 500
/** The 1.1 factor of the formulas, as a fraction. */
const FACTOR = { numerator: 11, denominator: 10 }

const withFactor = (tariff: number, extras: number) =>
  ((tariff + extras) * FACTOR.numerator) / FACTOR.denominator

/** EMS tariff (yen) by weight ceiling (g), zones 2/3/4/5 as our four regions. */
export const EMS_TARIFFS: Record<number, ZonePrices> = {
  500: { asia: 1900, europe_canada_mexico: 3150, usa: 3900, central_south_america: 3600 },
  1000: { asia: 3150, europe_canada_mexico: 4400, usa: 5300, central_south_america: 5100 },
  1500: { asia: 3850, europe_canada_mexico: 5550, usa: 6600, central_south_america: 6600 },
  2000: { asia: 4550, europe_canada_mexico: 6700, usa: 7900, central_south_america: 8100 },
  2500: { asia: 5150, europe_canada_mexico: 7750, usa: 9100, central_south_america: 9600 },
  3000: { asia: 5750, europe_canada_mexico: 8800, usa: 10300, central_south_america: 11100 },
  3500: { asia: 6350, europe_canada_mexico: 9850, usa: 11500, central_south_america: 12600 },
  4000: { asia: 6950, europe_canada_mexico: 10900, usa: 12700, central_south_america: 14100 },
  4500: { asia: 7550, europe_canada_mexico: 11950, usa: 13900, central_south_america: 15600 },
  5000: { asia: 8150, europe_canada_mexico: 13000, usa: 15100, central_south_america: 17100 },
  6000: { asia: 9350, europe_canada_mexico: 15100, usa: 17500, central_south_america: 20100 },
  7000: { asia: 10350, europe_canada_mexico: 17200, usa: 19900, central_south_america: 22500 },
  8000: { asia: 11350, europe_canada_mexico: 19300, usa: 22300, central_south_america: 24900 },
  9000: { asia: 12350, europe_canada_mexico: 21400, usa: 24700, central_south_america: 27300 },
  10000: { asia: 13350, europe_canada_mexico: 23500, usa: 27100, central_south_america: 29700 },
}

/** Small-packet airmail tariff: price at 100 g and per further 100 g. */
export const SMALL_PACKET_TARIFFS: Record<Region, { first100g: number; per100g: number; assumed: boolean }> =
  {
    asia: { first100g: 380, per100g: 120, assumed: false },
    europe_canada_mexico: { first100g: 510, per100g: 180, assumed: false },
    usa: { first100g: 830, per100g: 210, assumed: false },
    // Assumption, see above: 300 g = 1070 yen, +200 per 100 g.
    central_south_america: { first100g: 670, per100g: 200, assumed: true },
  }

export function smallPacketTariff(region: Region, ceilingG: number): number {
  const { first100g, per100g } = SMALL_PACKET_TARIFFS[region]
  return first100g + per100g * (ceilingG / 100 - 1)
}

export type SeedRateRow = {
  method: ShippingMethod
  ceilingG: number
  prices: ZonePrices
  assumption: string | null
}

const ZONE5_ASSUMPTION =
  'Central/South America: Japan Post zone 5 small-packet tariff not found; assumed 1070 yen at 300 g (from the spec sample) + 200 yen per 100 g.'

export function seedRateRows(): SeedRateRow[] {
  const rows: SeedRateRow[] = []
  for (let ceilingG = 300; ceilingG <= 2000; ceilingG += 100) {
    const prices = mapRegions((region) =>
      withFactor(smallPacketTariff(region, ceilingG), ECONOMIC_REGISTRATION_JPY + ECONOMIC_HANDLING_JPY),
    )
    rows.push({ method: 'economic', ceilingG, prices, assumption: ZONE5_ASSUMPTION })
  }
  for (const [ceiling, tariffs] of Object.entries(EMS_TARIFFS)) {
    const prices = mapRegions((region) => withFactor(tariffs[region], EXPRESS_HANDLING_JPY))
    rows.push({ method: 'express', ceilingG: Number(ceiling), prices, assumption: null })
  }
  return rows
}

function mapRegions(price: (region: Region) => number): ZonePrices {
  return {
    asia: price('asia'),
    europe_canada_mexico: price('europe_canada_mexico'),
    usa: price('usa'),
    central_south_america: price('central_south_america'),
  }
}
