import { AppError } from '#core/shared/errors.ts'
import { MFA_LIMITS } from './mfa-limits.ts'

/**
 * The rules of multi-factor authentication, pure (docs/decisions/008-mfa.md): who may set up,
 * use, add and remove factors, and how many an account may hold. Each returns an AppError to
 * throw, or null when allowed; the plugin and the services throw what they get.
 */

export type Aal = 'aal1' | 'aal2'
export type FactorStatus = 'verified' | 'unverified'

/** Who is presenting a code: a signed-in session (with its level) or a sign-in waiting for its factor. */
export type MfaActorKind = { kind: 'session'; aal: Aal } | { kind: 'pending' }

export function sessionAal(session: object): Aal {
  return (session as { aal?: unknown }).aal === 'aal2' ? 'aal2' : 'aal1'
}

export const aal2Required = () =>
  new AppError('forbidden', 'Verify a second factor first', { reason: 'mfaAal2Required' })
export const factorNotFound = () =>
  new AppError('not_found', 'No such factor', { reason: 'mfaFactorNotFound' })

/**
 * Setting up a factor (its secret, its SMS, its first code) on an account that already has a
 * verified one takes an aal2 session: an older aal1 session cannot make itself aal2 that way.
 * Adding one follows the same rule (Supabase's too).
 */
export function maySetUpFactor(aal: Aal, hasVerifiedFactor: boolean): AppError | null {
  return aal !== 'aal2' && hasVerifiedFactor ? aal2Required() : null
}

/**
 * Asking for or checking a code of a factor: a pending sign-in may use only verified factors (an
 * unverified one does not exist for it); a session may use a verified one to step up, and one
 * being set up under `maySetUpFactor`.
 */
export function mayUseFactor(
  actor: MfaActorKind,
  factorStatus: FactorStatus,
  hasVerifiedFactor: boolean,
): AppError | null {
  if (factorStatus === 'verified') return null
  if (actor.kind === 'pending') return factorNotFound()
  return maySetUpFactor(actor.aal, hasVerifiedFactor)
}

/** Removing a verified factor and new backup codes need aal2 (and re-authentication besides). */
export function mayChangeProtectedSettings(aal: Aal): AppError | null {
  return aal === 'aal2' ? null : aal2Required()
}

/** A new factor fits when the factors that remain (stale enrolments already dropped) are below the limit. */
export function mayAddFactor(remainingFactors: number): AppError | null {
  return remainingFactors >= MFA_LIMITS.maxFactors
    ? new AppError('invalid', 'Too many factors', { reason: 'mfaTooManyFactors' })
    : null
}

/** An enrolment never finished within a day is dropped. */
export function staleEnrolmentCutoff(now: Date = new Date()): Date {
  return new Date(now.getTime() - MFA_LIMITS.staleEnrolmentSeconds * 1000)
}

/** A pending sign-in that has had this many wrong codes must start again from the password. */
export function signInExhausted(failedAttempts: number): boolean {
  return failedAttempts >= MFA_LIMITS.attemptsPerSignIn
}

/** The per-account limit of code checks or text messages, scaled by AUTH_RATE_LIMIT_FACTOR. */
export function accountLimitRule(kind: 'verify' | 'sms', rateLimitFactor = 1) {
  return kind === 'verify'
    ? {
        limit: MFA_LIMITS.verificationsPerAccount * rateLimitFactor,
        windowSeconds: MFA_LIMITS.accountWindowSeconds,
      }
    : { limit: MFA_LIMITS.smsPerAccountPerHour * rateLimitFactor, windowSeconds: 3600 }
}

export function secondsLeft(expiresAt: Date, now: Date = new Date()): number {
  return Math.max(0, Math.floor((new Date(expiresAt).getTime() - now.getTime()) / 1000))
}
