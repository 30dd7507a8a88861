import {
  type DeliveryTime,
  type Destination,
  deliveryTime,
  type RateTables,
  type Route,
  type ShippingMethod,
  shippingPrice,
  WEIGHT_LIMITS,
} from '#core/pricing/pricing.ts'

/**
 * What shipping some items together would cost (the shipping tab's estimate, and what a
 * shipment request records): the items' weights plus the packing allowance, priced by the same
 * rate tables and destination rules as `/calculator`. Pure.
 */

export type ShipmentEstimate =
  | {
      ok: true
      weightG: number
      priceJpy: number
      deliveryTime: DeliveryTime
      route: Route
      region: Destination['region']
    }
  | {
      ok: false
      /** `tooHeavy`: over the method's limit; `noRate`: the table has no row for this weight. */
      refusal: 'tooHeavy' | 'noRate'
      weightG: number
      maxG: number
    }

export function estimateShipment(input: {
  itemWeightsG: readonly number[]
  packingAllowanceG: number
  method: ShippingMethod
  destination: Destination
  rates: RateTables
}): ShipmentEstimate {
  const weightG = input.itemWeightsG.reduce((sum, grams) => sum + grams, 0) + input.packingAllowanceG
  const maxG = WEIGHT_LIMITS[input.method].maxG
  if (weightG > maxG) return { ok: false, refusal: 'tooHeavy', weightG, maxG }
  // Below the table's first step the first row applies (a 120 g parcel pays the 300 g price).
  const priced = shippingPrice(input.rates[input.method], input.destination.region, weightG)
  if (priced === null || priced <= 0) return { ok: false, refusal: 'noRate', weightG, maxG }
  return {
    ok: true,
    weightG,
    priceJpy: priced,
    deliveryTime: deliveryTime(input.method, input.destination.region),
    route: input.destination.route,
    region: input.destination.region,
  }
}
