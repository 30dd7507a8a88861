import type { Database } from '#db/client.ts'

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
