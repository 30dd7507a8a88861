/**
 * A UUID's text (any version; the database's ids): the one copy of the pattern. Services check
 * an id with `isUuid` before they query, so a malformed id is answered like a missing one
 * (`not_found`) instead of reaching PostgreSQL as a malformed uuid.
 */
export const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

/** A whole string that is a UUID, in either case. */
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`, 'i')

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value)
}
