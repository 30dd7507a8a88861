import { APIError } from 'better-auth/api'
import type { DBAdapterInstance } from 'better-auth/types'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { type AppError, HTTP_STATUS, isAppError } from '#core/shared/errors.ts'

/**
 * The one place where a domain failure (`AppError`) becomes better-auth's `APIError`: the status
 * comes from the shared table (`HTTP_STATUS`), the answer's `code` from the reason
 * (`mfaInvalidCode` → `MFA_INVALID_CODE`, what API clients and `app/lib/mfa.server.ts` read), a
 * form field's problem is the `message` (an i18n key) with its `field`, and Retry-After is a header.
 */
export function toAPIError(error: AppError): APIError {
  const { reason, fieldErrors, retryAfterSeconds } = error.details
  const [field, messages] = fieldErrors ? (Object.entries(fieldErrors)[0] ?? []) : []
  const retryAfter = retryAfterSeconds === undefined ? null : String(Math.max(1, retryAfterSeconds))
  return new APIError(
    HTTP_STATUS[error.code] as ConstructorParameters<typeof APIError>[0],
    {
      code: reason
        ? apiCodeOf(reason)
        : error.code === 'rate_limited'
          ? 'TOO_MANY_REQUESTS'
          : error.code.toUpperCase(),
      message: messages?.[0] ?? error.message,
      ...(field === undefined ? {} : { field }),
    },
    retryAfter ? { 'Retry-After': retryAfter, 'X-Retry-After': retryAfter } : {},
  )
}

/** A reason as an API error code: `mfaInvalidCode` → `MFA_INVALID_CODE`. */
export function apiCodeOf(reason: string): string {
  return reason.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()
}

/**
 * Runs domain code for an endpoint or hook: its AppError leaves as an APIError, a database outage
 * as a 503 APIError; anything else as is.
 */
export async function speakingAuth<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (isAppError(error)) throw toAPIError(error)
    throw outageAsAPIError(error, true) ?? error
  }
}

/** A database outage as better-auth's 503 APIError (its original as `cause`), or null. */
function outageAsAPIError(error: unknown, write: boolean): APIError | null {
  const outage = databaseUnavailableError(error, { write })
  return outage ? Object.assign(toAPIError(outage), { cause: error }) : null
}

// The adapter's methods that read, and those that write (a write cut by an outage says whether it
// was saved: core/shared/database-errors.ts).
const READS = new Set(['findOne', 'findMany', 'count'])
const WRITES = new Set([
  'create',
  'update',
  'updateMany',
  'delete',
  'deleteMany',
  'consumeOne',
  'incrementOne',
  'transaction',
])

/**
 * The database adapter with outages answered as such: a connection failure inside any of its
 * calls leaves as a 503 APIError (`DATABASE_UNAVAILABLE…`, Retry-After), not better-auth's bare
 * 500, and keeps the original as its `cause` so our pages recognise it too.
 */
export function answerOutages(instance: DBAdapterInstance): DBAdapterInstance {
  return (options) => {
    const adapter = instance(options)
    return new Proxy(adapter, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver)
        const name = String(property)
        if (typeof value !== 'function' || !(READS.has(name) || WRITES.has(name))) return value
        return async (...args: unknown[]) => {
          try {
            return await value.apply(target, args)
          } catch (error) {
            throw outageAsAPIError(error, WRITES.has(name)) ?? error
          }
        }
      },
    })
  }
}
