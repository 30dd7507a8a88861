import type { RouterContextProvider } from 'react-router'
import { z } from 'zod'
import { AppError } from '#core/shared/errors.ts'
import { authRequest } from './session.server.ts'

/**
 * The account flows our pages run, as typed calls. Each goes through the auth handler the way
 * the browser would (`authRequest`: same origin, the visitor's cookies and IP, so better-auth's
 * origin check and rate limits apply to our forms too). Answers are parsed, not cast; a refusal
 * becomes an `AppError` whose reason the page shows (app/lib/http-errors.ts).
 */
type Call = { context: Readonly<RouterContextProvider>; request: Request }
type Answer = Awaited<ReturnType<typeof authRequest>>

const ErrorBody = z.object({ code: z.string().optional() }).nullable()

/** better-auth's refusal as a domain failure. */
export function authFailure(answer: Answer, path: string): AppError {
  const { status } = answer
  const code = ErrorBody.safeParse(answer.data).data?.code
  const message = `Auth endpoint ${path} answered ${status}${code ? ` (${code})` : ''}`
  if (status === 429) {
    const retryAfter = Number(answer.headers.get('retry-after') ?? answer.headers.get('x-retry-after'))
    return new AppError('rate_limited', message, {
      reason: 'tooManyAttempts',
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    })
  }
  if (code === 'PASSWORD_TOO_COMMON')
    return new AppError('invalid', message, { fieldErrors: { password: ['passwordTooCommon'] } })
  if (status === 403 && code === 'EMAIL_NOT_VERIFIED')
    return new AppError('forbidden', message, { reason: 'emailNotVerified' })
  if (status === 400 || status === 401)
    return new AppError('unauthorized', message, { reason: 'invalidCredentials' })
  return new AppError('upstream_failed', message, { reason: 'authUnexpected' })
}

async function call(
  { context, request }: Call,
  path: string,
  body: unknown,
  accept: (status: number) => boolean = (status) => status === 200,
) {
  const answer = await authRequest(context, request, 'POST', path, body)
  if (!accept(answer.status)) throw authFailure(answer, path)
  return answer
}

const SignInAnswer = z.object({ mfaRequired: z.literal(true).optional() }).passthrough()
const SocialAnswer = z.object({ url: z.url() })

export async function signInWithPassword(caller: Call, input: { email: string; password: string }) {
  const answer = await call(caller, '/sign-in/email', input)
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
  if (!parsed.success) throw authFailure({ ...answer, status: 502 }, '/sign-in/social')
  return { url: parsed.data.url, setCookies: answer.setCookies }
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
    throw authFailure(answer, '/reset-password')
  return false
}

export async function signOut(caller: Call) {
  const answer = await call(caller, '/sign-out', {})
  return { setCookies: answer.setCookies }
}
