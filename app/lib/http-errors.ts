import { data } from 'react-router'
import { databaseUnavailableError } from '#core/shared/database-errors.ts'
import { AppError, type AppErrorCode, HTTP_STATUS, isAppError } from '#core/shared/errors.ts'

/**
 * Where a domain failure becomes a page's or the JSON API's answer: its status (from the one
 * table, `HTTP_STATUS` in core/shared/errors.ts, which the better-auth adapter uses too), its
 * Retry-After, and the locale key of the message a person reads. Routes, the JSON API and the
 * root error boundary all use it.
 */

const CODE_KEY: Record<AppErrorCode, string> = {
  invalid: 'invalid',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'notFound',
  conflict: 'conflict',
  rate_limited: 'rateLimited',
  upstream_failed: 'upstreamFailed',
  unavailable: 'unavailable',
}

/** What an error boundary or a JSON client receives: no stack, no developer message. */
export type PublicError = {
  code: AppErrorCode
  /** A key of the locale files: `errors.reasons.<reason>` or `errors.codes.<code>`. */
  messageKey: string
  status: number
  retryAfterSeconds?: number
}

export function httpStatusOf(code: AppErrorCode): number {
  return HTTP_STATUS[code]
}

/** The locale key of the message for a failure: its reason when it has one, else its code's. */
export function messageKeyOf(error: AppError): string {
  return error.details.reason
    ? `errors.reasons.${error.details.reason}`
    : `errors.codes.${CODE_KEY[error.code]}`
}

export function toPublicError(error: AppError): PublicError {
  const { retryAfterSeconds } = error.details
  return {
    code: error.code,
    messageKey: messageKeyOf(error),
    status: HTTP_STATUS[error.code],
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  }
}

export function errorHeaders(error: AppError): HeadersInit {
  const { retryAfterSeconds } = error.details
  return retryAfterSeconds === undefined ? {} : { 'Retry-After': String(Math.max(1, retryAfterSeconds)) }
}

/**
 * For loaders: an AppError becomes a thrown response the root error boundary renders (translated
 * title and message, right status). A database outage becomes `unavailable` (503 + Retry-After).
 * Anything else is rethrown unchanged (a bug: 500).
 */
export function throwRouteError(error: unknown): never {
  const outage = databaseUnavailableError(error)
  if (outage) error = outage
  if (!isAppError(error)) throw error
  throw data(
    { appError: toPublicError(error) },
    { status: HTTP_STATUS[error.code], headers: errorHeaders(error) },
  )
}

/**
 * The one error path of every loader and action: the server wraps each route's loader and
 * action with it (server/react-router-handler.ts), so a route only throws. A failure it lets
 * through (an AppError, or a database outage: 503 saying whether a change was saved) becomes the
 * translated error page with its status; a thrown redirect or `data(…)` passes unchanged; anything
 * else is a bug (500). Forms that keep what was typed answer their own failure first
 * (`formFailure`), then rethrow what is not theirs.
 */
// biome-ignore lint/suspicious/noExplicitAny: loaders and actions of any route
export function answeringRouteErrors<F extends (...args: any[]) => unknown>(handler: F, write: boolean): F {
  return (async (...args: Parameters<F>) => {
    try {
      return await handler(...args)
    } catch (error) {
      throwRouteError(databaseUnavailableError(error, { write }) ?? error)
    }
  }) as F
}

/**
 * An action's refusal that its page shows in place (beside a button, on a row of a list): the
 * AppError (a database outage as `unavailable`, saying whether the change was saved) with its
 * status, headers and message key. Anything else is rethrown, to the one error path.
 */
export function refusalOf(caught: unknown, { write = true }: { write?: boolean } = {}) {
  const error = databaseUnavailableError(caught, { write }) ?? caught
  if (!isAppError(error)) throw caught
  return {
    error,
    messageKey: messageKeyOf(error),
    fieldErrors: (error.details.fieldErrors ?? {}) as Record<string, string[]>,
    init: { status: HTTP_STATUS[error.code], headers: errorHeaders(error) },
  }
}

/** Reads what `throwRouteError` threw, in an error boundary. */
export function publicErrorFrom(errorData: unknown): PublicError | null {
  if (typeof errorData !== 'object' || errorData === null || !('appError' in errorData)) return null
  return (errorData as { appError: PublicError }).appError
}

type ReplyOptions = { formErrors?: string[]; fieldErrors?: Record<string, string[]> }

/**
 * For actions with a Conform form: an AppError becomes the form's answer (its message as a form
 * error, its field errors on the fields) with the right status and headers, so the form shows it
 * beside what the visitor typed; so does a database outage (503). Anything else is rethrown.
 */
export function formFailure<Result, Extra extends object = Record<never, never>>(
  error: unknown,
  submission: { reply: (options?: ReplyOptions) => Result },
  extra?: Extra,
) {
  // A database outage keeps the form and what was typed, and says whether the change was saved.
  const refusal = refusalOf(error)
  const result = submission.reply({
    formErrors: [refusal.messageKey],
    ...(refusal.error.details.fieldErrors ? { fieldErrors: refusal.fieldErrors } : {}),
  })
  return data({ ...(extra as Extra), result, error: toPublicError(refusal.error) }, refusal.init)
}

/**
 * A plain action's refusal (a button, no fields to keep): a missing thing or no session is the
 * error page; anything else comes back as `{ messageKey, fieldErrors }` (and the caller's
 * `extra`, e.g. which form) with its status for the page to say.
 * A database outage is a 503 that says whether the change was saved.
 */
export function actionFailure<Extra extends object = Record<never, never>>(error: unknown, extra?: Extra) {
  const refusal = refusalOf(error)
  if (refusal.error.code === 'not_found' || refusal.error.code === 'unauthorized')
    throwRouteError(refusal.error)
  return data(
    { ...(extra as Extra), messageKey: refusal.messageKey, fieldErrors: refusal.fieldErrors },
    refusal.init,
  )
}

/** For the JSON API: `{ error: { code, message } }`, its status and headers. */
export function apiError(error: AppError, translate: (key: string) => string) {
  return {
    status: HTTP_STATUS[error.code],
    headers: errorHeaders(error),
    body: { error: { code: error.code, message: translate(messageKeyOf(error)) } },
  }
}

export { AppError }
