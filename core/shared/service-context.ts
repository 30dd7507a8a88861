import type { Database } from '#db/client.ts'
import { AppError } from './errors.ts'

export type { Database }

export const ROLE_NAMES = ['user', 'admin', 'moderator'] as const
export type RoleName = (typeof ROLE_NAMES)[number]

/** Who is asking: resolved once per request by the web layer's middleware. */
export type Actor = { id: string; role: RoleName }

/**
 * What every service function takes first. Pass `{ db: tx, actor }` to run services inside one
 * transaction. `actor` is null for anonymous callers (a visitor, a scheduled job).
 */
export type ServiceContext = { db: Database; actor: Actor | null }

/** A role read from storage: anything unknown or missing counts as the least, `user`. */
export function toRoleName(value: unknown): RoleName {
  return ROLE_NAMES.find((role) => role === value) ?? 'user'
}

/** Staff are moderators and admins. */
export function isStaff(actor: Actor | null): boolean {
  return actor?.role === 'admin' || actor?.role === 'moderator'
}

/**
 * The signed-in actor, else AppError `unauthorized` with `message` (for logs: "Invoices need a
 * signed-in user"). With `staffOnly` (its message), a signed-in customer is refused too:
 * `forbidden`, reason `staffActionForbidden`.
 */
export function requireActor(
  actor: Actor | null,
  message: string,
  options: { staffOnly?: string } = {},
): Actor {
  if (!actor) throw new AppError('unauthorized', message)
  if (options.staffOnly !== undefined && !isStaff(actor)) {
    throw new AppError('forbidden', options.staffOnly, { reason: 'staffActionForbidden' })
  }
  return actor
}
