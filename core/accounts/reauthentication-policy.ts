import { AppError } from '#core/shared/errors.ts'

/** Accounts without a password (Google only) re-authenticate with a session at most this old. */
export const FRESH_SESSION_SECONDS = 10 * 60

export type ReauthenticationInput = {
  /** The stored password hash, or null for an account without a password. */
  passwordHash: string | null
  /** What the person typed (anything the client sent). */
  password: unknown
  sessionCreatedAt: Date
  /** Whether the person ticked the explicit confirmation (asked of accounts without a password). */
  confirmed: boolean
}

/**
 * What a sensitive change (removing a factor, new backup codes, deleting the account) asks of the
 * person, pure: the password when the account has one, never mere session freshness; without a
 * password, a session signed in within ten minutes, plus the explicit confirmation when
 * `requireConfirmation` (deleting the account).
 */
export function reauthenticationStep(
  input: Omit<ReauthenticationInput, 'password'> & { passwordGiven: boolean },
  { requireConfirmation = false, now = new Date() }: { requireConfirmation?: boolean; now?: Date } = {},
): 'check-password' | 'ok' | AppError {
  if (input.passwordHash) {
    return input.passwordGiven
      ? 'check-password'
      : new AppError('invalid', 'Password required', { reason: 'invalidPassword' })
  }
  if (now.getTime() - new Date(input.sessionCreatedAt).getTime() > FRESH_SESSION_SECONDS * 1000) {
    return new AppError('forbidden', 'Sign in again first', { reason: 'reauthRequired' })
  }
  if (requireConfirmation && !input.confirmed) {
    return new AppError('invalid', 'Confirmation required', { reason: 'confirmationRequired' })
  }
  return 'ok'
}
