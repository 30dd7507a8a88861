import { z } from 'zod'
import { freeText } from '#core/orders/quote-schemas.ts'
import { SHIPPING_METHODS } from '#core/pricing/pricing.ts'
import { confirmField } from '#core/shared/confirmation.ts'
import { wholeNumber } from '#core/shared/form-values.ts'
import { MAX_PHOTO_BYTES } from '#core/uploads/photo-rules.ts'
import { grams } from '#core/warehouse/arrival-schemas.ts'
import { CARRIERS } from './tracking.ts'

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

/** Which shipment, and the version the page showed (compare-and-set). */
export const ShipmentVersionSchema = z.object({
  id,
  version: z.coerce.number({ error: 'invalid' }).int({ error: 'invalid' }).min(0, { error: 'invalid' }),
})

export const CANCEL_REASON_MAX = 500

/**
 * The customer or staff cancel a shipment not paid yet (docs/decisions/037): why (staff must say,
 * the customer may; the customer's e-mail repeats it) and the confirmation that they read what
 * it does (the receipt voided, the items back in storage).
 */
export const CancelShipmentSchema = ShipmentVersionSchema.extend({
  reason: freeText(CANCEL_REASON_MAX, 'reasonTooLong', { required: null }),
  confirm: confirmField,
})

export const PACKING_LIMITS = {
  sizeCm: { min: 1, max: 300 },
  priceJpy: { min: 1, max: 10_000_000 },
  reason: 500,
  photos: 1,
} as const

const blankToUndefined = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
    ? undefined
    : value

const centimetres = z.preprocess(
  blankToUndefined,
  wholeNumber({ ...PACKING_LIMITS.sizeCm, rangeKey: 'sizeRange' }).optional(),
)

/**
 * Staff pack a shipment (its page, docs/decisions/029): the box's weight in whole grams, its size
 * when measured (all three or none), and the price only when it differs from the rate table's,
 * with the reason (the service compares it with the table). The photo of the box comes beside it
 * as a file. Messages are i18n keys under `packing.errors` (app/locales/*\/admin.ts).
 */
export const PackShipmentSchema = z
  .object({
    id,
    version: CancelShipmentSchema.shape.version,
    weight: grams,
    length: centimetres,
    width: centimetres,
    height: centimetres,
    price: z.preprocess(
      blankToUndefined,
      wholeNumber({ ...PACKING_LIMITS.priceJpy, rangeKey: 'priceRange', yen: true }).optional(),
    ),
    reason: freeText(PACKING_LIMITS.reason, 'reasonTooLong', { required: null }),
    // A price other than the rate table's moves money: staff confirm it, with its amounts shown.
    confirm: confirmField,
  })
  .superRefine((value, context) => {
    const given = [value.length, value.width, value.height].filter((side) => side !== undefined).length
    if (given !== 0 && given !== 3) {
      for (const side of ['length', 'width', 'height'] as const) {
        if (value[side] === undefined)
          context.addIssue({ code: 'custom', message: 'sizeIncomplete', path: [side] })
      }
    }
  })
export type PackShipmentInput = z.input<typeof PackShipmentSchema>

/** The packing form's body: one photo and the fields. */
export const PACKING_FORM_BODY_BYTES = PACKING_LIMITS.photos * MAX_PHOTO_BYTES + 256 * 1024

/** Staff hand the paid shipment to the carrier: which carrier and its tracking number (checked by `checkTrackingNumber`). */
export const ShipShipmentSchema = z.object({
  id,
  version: CancelShipmentSchema.shape.version,
  carrier: z.enum(CARRIERS, {
    error: (issue) => (issue.input === undefined || issue.input === '' ? 'carrierRequired' : 'invalid'),
  }),
  trackingNumber: z
    .string({ error: 'trackingRequired' })
    .max(60, { error: 'trackingShape' })
    .refine((value) => value.trim() !== '', { error: 'trackingRequired' }),
})

/** Staff, or the customer confirming receipt: the shipment arrived. */
export const DeliverShipmentSchema = ShipmentVersionSchema

/**
 * An admin re-issues a shipment's receipt at a corrected shipping price (docs/decisions/037): the
 * price, why (the customer reads it on the credit note and in the e-mail) and the confirmation.
 */
export const ReissueReceiptSchema = ShipmentVersionSchema.extend({
  price: z.preprocess(
    blankToUndefined,
    wholeNumber({ ...PACKING_LIMITS.priceJpy, rangeKey: 'priceRange', yen: true }).optional(),
  ),
  reason: freeText(PACKING_LIMITS.reason, 'reasonTooLong', { required: 'reasonRequired' }),
  confirm: confirmField,
}).superRefine((value, context) => {
  if (value.price === undefined)
    context.addIssue({ code: 'custom', message: 'priceRequired', path: ['price'] })
})
export type ReissueReceiptInput = z.input<typeof ReissueReceiptSchema>

export const CLAIM_LIMITS = { note: 2000, reference: 100, reason: 2000 } as const

/** The customer reports a parcel that has not arrived. */
export const OpenClaimSchema = z.object({
  id,
  version: CancelShipmentSchema.shape.version,
  note: freeText(CLAIM_LIMITS.note, 'noteTooLong', { required: null }),
})

/** Staff write down what the carrier said: its case reference, and a note for the history. */
export const InvestigateClaimSchema = z.object({
  claimId: id,
  version: CancelShipmentSchema.shape.version,
  carrierReference: freeText(CLAIM_LIMITS.reference, 'referenceTooLong', { required: null }),
  note: freeText(CLAIM_LIMITS.note, 'noteTooLong', { required: null }),
})

/** The end of a claim: confirmed lost (admins: it refunds money) or closed with a reason. */
export const ResolveClaimSchema = z.object({
  claimId: id,
  version: CancelShipmentSchema.shape.version,
  resolution: z.enum(['lost', 'closed'], { error: 'invalid' }),
  reason: freeText(CLAIM_LIMITS.reason, 'reasonTooLong', { required: 'reasonRequired' }),
})
