/**
 * The one failure type of the domain. A service throws it for anything its caller is expected
 * to handle; anything else is a bug and becomes a 500. `HTTP_STATUS` below is the one table of
 * statuses (used by `app/lib/http-errors.ts` for pages and by the better-auth adapter for its
 * endpoints); `app/lib/http-errors.ts` is the only place that picks a translated message.
 */
export type AppErrorCode =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  /** A service we depend on (SMS, e-mail, a payment provider) failed or did not answer. */
  | 'upstream_failed'
  /**
   * Our own infrastructure cannot serve the request right now (the database is down or
   * restarting): never thrown by services, made at the web layer's edge from a connection
   * failure (core/shared/database-errors.ts). 503 with Retry-After.
   */
  | 'unavailable'

/** The HTTP status of each code: the only such table (pages, JSON API and auth endpoints alike). */
export const HTTP_STATUS: Readonly<Record<AppErrorCode, number>> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  upstream_failed: 502,
  unavailable: 503,
}

/** The code of an HTTP failure status, for answers read back from an HTTP API (the auth endpoints). */
export function codeOfHttpStatus(status: number): AppErrorCode {
  if (status === 503) return 'unavailable'
  if (status >= 500) return 'upstream_failed'
  const found = (Object.keys(HTTP_STATUS) as AppErrorCode[]).find((code) => HTTP_STATUS[code] === status)
  return found ?? 'invalid'
}

export type AppErrorDetails = {
  /**
   * Which failure, more precisely than the code, for the message the person sees: a key of
   * `errors.reasons` in the locale files (for example `lastAdmin`). Without it the code's
   * general message is shown.
   */
  reason?: string
  /** Per-field message keys, for forms (the field's own namespace). */
  fieldErrors?: Record<string, string[]>
  /** With `rate_limited` or `unavailable`: seconds until another try may succeed (the Retry-After header). */
  retryAfterSeconds?: number
}

export class AppError extends Error {
  readonly code: AppErrorCode
  readonly details: AppErrorDetails

  /** `message` is for developers and logs ("Unable to … user X …"); people see `details.reason`. */
  constructor(code: AppErrorCode, message: string, details: AppErrorDetails = {}) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.details = details
  }
}

/**
 * By shape as well as by class: `server/main.ts` runs from source while routes come from the
 * build, so one process can hold two copies of this module (docs/decisions/006).
 */
export function isAppError(error: unknown, code?: AppErrorCode): error is AppError {
  const isOne =
    error instanceof AppError ||
    (error instanceof Error &&
      error.name === 'AppError' &&
      typeof (error as Partial<AppError>).code === 'string' &&
      typeof (error as Partial<AppError>).details === 'object')
  return isOne && (code === undefined || (error as AppError).code === code)
}

/** Too many attempts: answered 429 with Retry-After. */
export function rateLimited(message: string, retryAfterSeconds: number, reason?: string): AppError {
  return new AppError('rate_limited', message, { retryAfterSeconds, ...(reason ? { reason } : {}) })
}
