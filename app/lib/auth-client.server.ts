import type { RouterContextProvider } from 'react-router'
import { z } from 'zod'
import en from '#app/locales/en.ts'
import { VERIFICATION_CALLBACK_PATH } from '#core/accounts/verification-link.ts'
import { DATABASE_RETRY_AFTER_SECONDS } from '#core/shared/database-errors.ts'
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

// The account flows our pages run (sign-in, sign-up, Google, password reset, sign-out), as typed
// calls on the same footing: answers parsed, refusals as AppErrors with the catalogue's reasons.

type Call = { context: Context; request: Request }
type Answer = Awaited<ReturnType<typeof authRequest>>

const ErrorBody = z.object({ code: z.string().optional() }).nullable()

/**
 * A refusal of one of the account flows below, with the catalogue's reasons: wrong credentials,
 * e-mail not confirmed, too many attempts, a password too common (on its field), or the auth
 * service failing.
 */
function accountFlowFailure(answer: Answer, path: string): AppError {
  const { status } = answer
  const code = ErrorBody.safeParse(answer.data).data?.code
  const message = `Auth endpoint ${path} answered ${status}${code ? ` (${code})` : ''}`
  if (status === 429) {
    const retryAfter = answer.retryAfterSeconds ?? Number(answer.headers.get('x-retry-after'))
    return new AppError('rate_limited', message, {
      reason: 'tooManyAttempts',
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    })
  }
  if (code === 'PASSWORD_TOO_COMMON')
    return new AppError('invalid', message, { fieldErrors: { password: ['passwordTooCommon'] } })
  if (status === 403 && code === 'EMAIL_NOT_VERIFIED')
    return new AppError('forbidden', message, { reason: 'emailNotVerified' })
  // An account staff disabled (better-auth's admin plugin refuses its sessions; ADR 024).
  if (status === 403 && code === 'BANNED_USER')
    return new AppError('forbidden', message, { reason: 'accountDisabled' })
  if (status === 400 || status === 401)
    return new AppError('unauthorized', message, { reason: 'invalidCredentials' })
  // The database was unreachable (core/accounts/better-auth/errors.ts): its reason says whether
  // anything was saved.
  if (status === 503) {
    const reason = code ? reasonOfApiCode(code) : ''
    return new AppError('unavailable', message, {
      reason: KNOWN_REASONS.has(reason) ? reason : 'databaseUnavailable',
      retryAfterSeconds: answer.retryAfterSeconds ?? DATABASE_RETRY_AFTER_SECONDS,
    })
  }
  return new AppError('upstream_failed', message, { reason: 'authUnexpected' })
}

async function call(
  { context, request }: Call,
  path: string,
  body: unknown,
  accept: (status: number) => boolean = (status) => status === 200,
) {
  const answer = await authRequest(context, request, 'POST', path, body)
  if (!accept(answer.status)) throw accountFlowFailure(answer, path)
  return answer
}

const SignInAnswer = z.object({ mfaRequired: z.literal(true).optional() }).passthrough()
const SocialAnswer = z.object({ url: z.url() })

export async function signInWithPassword(caller: Call, input: { email: string; password: string }) {
  // An unverified account is sent a fresh link: it ends where the sign-up's does.
  const answer = await call(caller, '/sign-in/email', { ...input, callbackURL: VERIFICATION_CALLBACK_PATH })
  const parsed = SignInAnswer.safeParse(answer.data)
  return { mfaRequired: parsed.data?.mfaRequired === true, setCookies: answer.setCookies }
}

/** An address already registered answers like a new one (422 is accepted): no enumeration. */
export async function signUpWithPassword(
  caller: Call,
  input: { name: string; email: string; password: string; language: string; callbackURL: string },
) {
  await call(caller, '/sign-up/email', input, (status) => status === 200 || status === 422)
}

/** Where to send the browser to sign in with Google. */
export async function startGoogleSignIn(
  caller: Call,
  input: { callbackURL: string; errorCallbackURL: string },
) {
  const answer = await call(caller, '/sign-in/social', { provider: 'google', ...input })
  const parsed = SocialAnswer.safeParse(answer.data)
  if (!parsed.success) throw accountFlowFailure({ ...answer, status: 502 }, '/sign-in/social')
  return { url: parsed.data.url, setCookies: answer.setCookies }
}

/**
 * A new verification link to `email`, ending where the first one ends. The same answer whether
 * the account exists, is verified already or not (better-auth answers alike and pads the time);
 * its rate limit applies (a 429 is a refusal).
 */
export async function resendVerificationEmail(caller: Call, email: string) {
  await call(
    caller,
    '/send-verification-email',
    { email, callbackURL: VERIFICATION_CALLBACK_PATH },
    (status) =>
      // 400: a signed-in session for another address, or one already verified.
      [200, 400].includes(status),
  )
}

/** The same answer whether or not the account exists. */
export async function requestPasswordReset(caller: Call, email: string) {
  await call(caller, '/request-password-reset', { email, redirectTo: '/auth/reset-password' })
}

/** @returns false when the link is expired, used or forged. */
export async function resetPassword(caller: Call, input: { token: string; newPassword: string }) {
  const answer = await call(caller, '/reset-password', input, (status) => status === 200 || status === 400)
  if (answer.status === 200) return true
  if (ErrorBody.safeParse(answer.data).data?.code === 'PASSWORD_TOO_COMMON')
    throw accountFlowFailure(answer, '/reset-password')
  return false
}

export async function signOut(caller: Call) {
  const answer = await call(caller, '/sign-out', {})
  return { setCookies: answer.setCookies }
}
