import { chargedStorage, type StorageFeeLine, shippingReceiptTotals } from '#core/billing/receipt-totals.ts'
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
 * rate tables and destination rules as `/calculator`, plus the storage fees the items have run up
 * past their free days and their tax, priced by `shippingReceiptTotals`, the function the
 * shipping receipt is issued with (docs/decisions/037): asked on the day the items are reserved,
 * the estimate's storage and tax are the receipt's. Pure.
 */

export type ShipmentEstimate =
  | {
      ok: true
      weightG: number
      priceJpy: number
      deliveryTime: DeliveryTime
      route: Route
      region: Destination['region']
      /** The items that pay storage, each with its days and the daily fee (before tax). */
      storage: StorageFeeLine[]
      storageFeeJpy: number
      /** Consumption tax on the storage fees (international shipping is not taxed). */
      taxJpy: number
      /** Shipping + storage fees + tax: what the receipt will ask if the packed box weighs this. */
      totalJpy: number
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
  /** Each chosen item's storage charge so far (an item within its free days: 0 days). */
  storage: readonly StorageFeeLine[]
  taxRateBasisPoints: number
}): ShipmentEstimate {
  const weightG = input.itemWeightsG.reduce((sum, grams) => sum + grams, 0) + input.packingAllowanceG
  const maxG = WEIGHT_LIMITS[input.method].maxG
  if (weightG > maxG) return { ok: false, refusal: 'tooHeavy', weightG, maxG }
  // Below the table's first step the first row applies (a 120 g parcel pays the 300 g price).
  const priced = shippingPrice(input.rates[input.method], input.destination.region, weightG)
  if (priced === null || priced <= 0) return { ok: false, refusal: 'noRate', weightG, maxG }
  const storage = chargedStorage(input.storage)
  const totals = shippingReceiptTotals(priced, storage, input.taxRateBasisPoints)
  return {
    ok: true,
    weightG,
    priceJpy: priced,
    storage,
    storageFeeJpy: totals.storageFeeJpy,
    taxJpy: totals.taxJpy,
    totalJpy: totals.totalJpy,
    deliveryTime: deliveryTime(input.method, input.destination.region),
    route: input.destination.route,
    region: input.destination.region,
  }
}
