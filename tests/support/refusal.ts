import { isAppError } from '#core/shared/errors.ts'

/**
 * What a service refused with, to compare in a test: its code, reason and field errors. Throws if
 * the promise did not refuse, or failed with something that is not an AppError (a bug, not a
 * refusal).
 *
 *   expect(await refusal(packShipment(orders.as(ana), input, RATES))).toMatchObject({ code: 'forbidden' })
 */
export async function refusal(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (isAppError(error))
      return { code: error.code, reason: error.details.reason, fields: error.details.fieldErrors }
    throw error
  }
  throw new Error('expected a refusal')
}
