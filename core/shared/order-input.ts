import type { z } from 'zod'
import { AppError } from '#core/shared/errors.ts'
import type { OrderActor } from '#core/shared/history.ts'
import { invalidInput } from '#core/shared/input-errors.ts'
import type { Actor } from '#core/shared/service-context.ts'
import { requireStaffAction, type StaffAction } from './staff-policy.ts'

/**
 * What every order service does first (quotes, the warehouse, shipments): read its input with
 * its schema (a refusal is `invalid` with the message keys on their fields, and `reason` for the
 * form's message), and check the staff member may do this.
 */

export function parse<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  reason = 'requestInvalid',
): z.output<Schema> {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  throw invalidInput(parsed.error.issues, { message: 'Input refused', reason })
}

/** The staff member allowed this action, as the machine's actor; else `unauthorized`/`forbidden`. */
export function staffActor(actor: Actor | null, action: StaffAction): OrderActor {
  if (!actor) throw new AppError('unauthorized', 'Staff actions need a signed-in user')
  return { kind: 'staff', id: requireStaffAction(actor, action, 'staffActionForbidden').id }
}
