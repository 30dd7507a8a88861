import { FRESH_SESSION_SECONDS } from '../reauthentication-policy.ts'

/** Lifetimes and limits of multi-factor authentication (docs/decisions/008-mfa.md). */
export const MFA_LIMITS = {
  /** How long a sign-in may wait for its second factor. */
  pendingSignInSeconds: 10 * 60,
  /** Wrong codes one pending sign-in may try before it must start again with the password. */
  attemptsPerSignIn: 5,
  /** An SMS code's life (ASVS 6.5.5 allows up to 10 minutes). */
  smsCodeSeconds: 5 * 60,
  /** Code checks per account, from any address, in `accountWindowSeconds`. */
  verificationsPerAccount: 10,
  accountWindowSeconds: 15 * 60,
  /** Text messages per account per hour. */
  smsPerAccountPerHour: 5,
  /** Factors an account may hold. */
  maxFactors: 10,
  backupCodes: 10,
  /** Removing a factor without a password (Google accounts) needs a session this young. */
  freshSessionSeconds: FRESH_SESSION_SECONDS,
  /** An enrolment never confirmed with a code is dropped after this long. */
  staleEnrolmentSeconds: 24 * 60 * 60,
} as const
