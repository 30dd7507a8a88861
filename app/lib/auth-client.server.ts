import type { RouterContextProvider } from 'react-router'
import type { z } from 'zod'
import en from '#app/locales/en.ts'
import { AppError, codeOfHttpStatus } from '#core/shared/errors.ts'
import { authRequest } from './session.server.ts'

type Context = Readonly<RouterContextProvider>

/** An answer of the auth handler, parsed: its data and the cookies to pass on. */
export type AuthReply<T> = { data: T; setCookies: string[] }

/**
 * Calls one auth endpoint the way the browser would (`authRequest`) and parses a success with
 * `schema`; a failure becomes an AppError (see `authFailure`). An answer that does not match the
 * schema is a bug, not a visitor's mistake: it throws.
 */
export async function callAuth<T>(
  context: Context,
  request: Request,
  { method, path, body }: { method: 'GET' | 'POST'; path: string; body?: unknown },
  schema: z.ZodType<T>,
): Promise<AuthReply<T>> {
  const answer = await authRequest(context, request, method, path, body)
  if (answer.status !== 200) throw authFailure(answer.status, answer.data, answer.retryAfterSeconds)
  return { data: schema.parse(answer.data), setCookies: answer.setCookies }
}

const KNOWN_REASONS = new Set(Object.keys(en.errors.reasons))

/** `MFA_INVALID_CODE` → `mfaInvalidCode` (the adapter's rule, core/accounts/better-auth/errors.ts, reversed). */
export function reasonOfApiCode(code: string): string {
  return code.toLowerCase().replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())
}

/**
 * A failed answer as the domain's error: the code from the status, the reason from the answer's
 * code when the locale files have a message for it, a field's problem (an `mfa.errors` key) on its
 * field, and Retry-After.
 */
export function authFailure(
  status: number,
  body: Record<string, unknown> | null,
  retryAfterSeconds?: number,
): AppError {
  const apiCode = typeof body?.code === 'string' ? body.code : ''
  const reason = reasonOfApiCode(apiCode)
  const field = typeof body?.field === 'string' ? body.field : null
  const message = typeof body?.message === 'string' ? body.message : ''
  return new AppError(codeOfHttpStatus(status), `auth endpoint answered ${status} ${apiCode}`, {
    ...(KNOWN_REASONS.has(reason) ? { reason } : {}),
    ...(field !== null && message ? { fieldErrors: { [field]: [message] } } : {}),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  })
}
