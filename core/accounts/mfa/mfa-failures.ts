import type { z } from 'zod'
import { AppError } from '#core/shared/errors.ts'

/**
 * The reasons MFA failures carry (keys of `errors.reasons` in the locale files). Over HTTP each
 * becomes the answer's code (`mfaInvalidCode` → `MFA_INVALID_CODE`), which `app/lib/mfa.server.ts`
 * turns back into the reason.
 */
export const MFA_REASONS = [
  'mfaInvalidInput',
  'mfaInvalidCode',
  'mfaChallengeExpired',
  'mfaTooManyAttempts',
  'mfaSignInExpired',
  'mfaNoPendingSignIn',
  'mfaNameTaken',
  'mfaTooManyFactors',
  'mfaAal2Required',
  'mfaNotEnabled',
  'mfaSmsFailed',
  'mfaFactorNotFound',
  'invalidPassword',
  'reauthRequired',
  'confirmationRequired',
] as const

export type MfaReason = (typeof MFA_REASONS)[number]

const fail = (code: AppError['code'], message: string, reason: MfaReason) =>
  new AppError(code, message, { reason })

export const invalidCode = () => fail('unauthorized', 'Invalid code', 'mfaInvalidCode')
export const challengeExpired = () => fail('invalid', 'The code has expired', 'mfaChallengeExpired')
export const signInExpired = () =>
  fail('unauthorized', 'Too many wrong codes: sign in again', 'mfaSignInExpired')
export const noPendingSignIn = () => fail('unauthorized', 'No sign-in waits for a code', 'mfaNoPendingSignIn')
export const nameTaken = () => fail('conflict', 'A factor with that name exists', 'mfaNameTaken')
export const notEnabled = () => fail('invalid', 'No second factor', 'mfaNotEnabled')
export const smsFailed = () => fail('upstream_failed', 'The text message could not be sent', 'mfaSmsFailed')

/** Bad input: 400 with the first problem's i18n key (under `mfa.errors`) on its field. */
export function invalidInput(error: z.ZodError, field?: string): AppError {
  const issue = error.issues[0]
  return new AppError('invalid', 'Invalid MFA input', {
    reason: 'mfaInvalidInput',
    fieldErrors: { [field ?? issue?.path.join('.') ?? '']: [issue?.message ?? 'invalid'] },
  })
}
