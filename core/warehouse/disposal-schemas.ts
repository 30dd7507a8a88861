import { z } from 'zod'
import { freeText, id } from '#core/orders/quote-schemas.ts'

/**
 * What an admin sends to dispose of an item past its storage (docs/decisions/031), shared by the
 * service (core/warehouse/overdue-storage.ts) and the page's form. Pure: no database.
 */
export const DISPOSAL_REASON_MAX = 1000

export const DisposeItemSchema = z.object({
  itemId: id,
  reason: freeText(DISPOSAL_REASON_MAX, 'reasonTooLong', { required: 'reasonRequired' }),
})
