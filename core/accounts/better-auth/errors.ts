import { APIError } from 'better-auth/api'
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

/** Runs domain code for an endpoint or hook: its AppError leaves as an APIError; anything else as is. */
export async function speakingAuth<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw isAppError(error) ? toAPIError(error) : error
  }
}
