import { z } from 'zod'
import { AppError } from './errors.ts'

/**
 * Money moving and things that cannot be undone (cancelling a shipment, a refund through the
 * provider, a packing price other than the rate table's, a re-issued receipt) need the person to
 * confirm, having read what will happen with its amounts (docs/decisions/037). The form carries a
 * checkbox `confirm=yes` (ticked by hand without JavaScript; set by the confirmation dialog with
 * it), and the service refuses the action without it: a page that skips the step, an old tab or
 * a hand-made post gets `actionNotConfirmed` and nothing happens.
 */

export const CONFIRM_VALUE = 'yes'

/** The form's `confirm` field: true only for the checkbox's value. */
export const confirmField = z.preprocess((value) => value === CONFIRM_VALUE || value === true, z.boolean())

/** Refuses an unconfirmed action: `invalid`, the message on the `confirm` field. */
export function requireConfirmation(
  confirmed: boolean | undefined,
  what: string,
  reason = 'actionNotConfirmed',
) {
  if (confirmed === true) return
  throw new AppError('invalid', `${what}: not confirmed`, {
    reason,
    fieldErrors: { confirm: ['confirmRequired'] },
  })
}
