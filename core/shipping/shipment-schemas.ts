import { z } from 'zod'
import { SHIPPING_METHODS } from '#core/pricing/pricing.ts'

// The customer's shipping form (the shipping tab) and its buttons: one schema for the browser and
// the server. Messages are i18n keys under `shipments.errors` (app/locales/*/account.ts).

/** The most items one shipment request may hold (a box, not a warehouse). */
export const MAX_SHIPMENT_ITEMS = 100

const id = z.uuid({ error: 'invalid' })

export const ShipmentChoiceSchema = z.object({
  items: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z
      .array(id, { error: 'invalid' })
      .min(1, { error: 'noItems' })
      .max(MAX_SHIPMENT_ITEMS, { error: 'tooManyItems' })
      .refine((items) => new Set(items).size === items.length, { error: 'invalid' }),
  ),
  addressId: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.uuid({ error: (issue) => (issue.input === undefined ? 'addressRequired' : 'invalid') }),
  ),
  method: z.enum(SHIPPING_METHODS, {
    error: (issue) => (issue.input === undefined || issue.input === '' ? 'methodRequired' : 'invalid'),
  }),
})
export type ShipmentChoice = z.output<typeof ShipmentChoiceSchema>

export const CancelShipmentSchema = z.object({
  id,
  version: z.coerce.number({ error: 'invalid' }).int({ error: 'invalid' }).min(0, { error: 'invalid' }),
})
