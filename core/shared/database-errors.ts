import { AppError } from './errors.ts'

/**
 * The one place that recognises "the database cannot be reached" (an infrastructure failure, not
 * a domain one): the server is down or restarting, a connection was cut under a query, or the pool
 * could not get a connection in time. The web layer turns it into 503 + Retry-After
 * (`unavailable`), never the 500 page (docs/decisions/015-database-outage.md).
 *
 * node-postgres errors arrive raw, or wrapped by Drizzle (`DrizzleQueryError`, the original in
 * `cause`) or by better-auth: the whole `cause` chain is searched.
 */

/** Seconds a visitor (or a load balancer) should wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5

/**
 * `refused`: no connection was made, so nothing of the request reached the database.
 * `lost`: a connection broke while in use: a write in flight may or may not have committed.
 */
export type DatabaseOutageKind = 'refused' | 'lost'

// Socket errors: refused/unreachable means never connected; reset/pipe means cut while in use.
const REFUSED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND'])
const LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED'])
// SQLSTATEs: class 08 (connection exception) and the operator-intervention shutdowns.
const REFUSED_SQLSTATES = new Set(['57P03', '08001', '08004'])
const LOST_SQLSTATES = new Set(['57P01', '57P02', '08000', '08003', '08006'])
// Messages too, for errors re-wrapped without their code (pg-boss's worker errors).
const REFUSED_MESSAGES = [
  /\bconnect (ECONNREFUSED|EHOSTUNREACH|ENETUNREACH)\b/,
  /timeout exceeded when trying to connect/i,
  /Connection terminated due to connection timeout/i,
  /the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)/i,
  /Cannot use a pool after calling end on the pool/i,
]
const LOST_MESSAGES = [
  /\b(read|write) (ECONNRESET|EPIPE)\b/,
  /Connection terminated unexpectedly/i,
  /Connection terminated/i,
  /Client has encountered a connection error and is not queryable/i,
  /terminating connection due to administrator command/i,
  /server closed the connection unexpectedly/i,
]

/** How the database was unreachable, or null when the error is something else (a bug, a domain failure). */
export function databaseOutageOf(error: unknown): DatabaseOutageKind | null {
  const seen = new Set<unknown>()
  for (let current = error; current && typeof current === 'object' && !seen.has(current); ) {
    seen.add(current)
    const { code, message } = current as { code?: unknown; message?: unknown }
    if (typeof code === 'string') {
      if (REFUSED_CODES.has(code) || REFUSED_SQLSTATES.has(code)) return 'refused'
      if (LOST_CODES.has(code) || LOST_SQLSTATES.has(code)) return 'lost'
    }
    if (typeof message === 'string') {
      if (REFUSED_MESSAGES.some((pattern) => pattern.test(message))) return 'refused'
      if (LOST_MESSAGES.some((pattern) => pattern.test(message))) return 'lost'
    }
    current = (current as { cause?: unknown }).cause
  }
  return null
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseOutageOf(error) !== null
}

/**
 * The AppError a database outage becomes at the web layer's edge: `unavailable` (503) with
 * Retry-After. For a write (`write: true`), the message says whether it was saved: a refused
 * connection never reached the database; a lost one may have committed, so the visitor is asked
 * to check before trying again. Null when the error is not an outage.
 */
export function databaseUnavailableError(error: unknown, options: { write?: boolean } = {}): AppError | null {
  const kind = databaseOutageOf(error)
  if (!kind) return null
  const reason = !options.write
    ? 'databaseUnavailable'
    : kind === 'refused'
      ? 'databaseUnavailableNotSaved'
      : 'databaseUnavailableCheck'
  return new AppError('unavailable', `The database cannot be reached (${kind})`, {
    reason,
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  })
}

/**
 * Whether PostgreSQL refused a write for one named constraint: `unique` (23505, a unique index:
 * two requests at once, one of them first) or `check` (23514, a CHECK or a trigger's guard). Raw
 * or wrapped by Drizzle (the original in `cause`).
 */
export function isConstraintViolation(error: unknown, kind: 'unique' | 'check', constraint: string): boolean {
  const cause = ((error as { cause?: unknown })?.cause ?? error) as {
    code?: string
    constraint?: string
  } | null
  return cause?.code === (kind === 'unique' ? '23505' : '23514') && cause.constraint === constraint
}
