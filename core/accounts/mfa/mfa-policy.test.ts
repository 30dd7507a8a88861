import { expect, test } from 'vitest'
import { isAppError } from '#core/shared/errors.ts'
import { reauthenticationStep } from '../reauthentication-policy.ts'
import { MFA_LIMITS } from './mfa-limits.ts'
import {
  accountLimitRule,
  mayAddFactor,
  mayChangeProtectedSettings,
  maySetUpFactor,
  mayUseFactor,
  sessionAal,
  signInExhausted,
  staleEnrolmentCutoff,
} from './mfa-policy.ts'

const reasonOf = (error: unknown) => (isAppError(error) ? `${error.code}:${error.details.reason}` : error)

test('setting up a factor: free without a verified one, else only from an aal2 session', () => {
  expect(maySetUpFactor('aal1', false)).toBeNull()
  expect(maySetUpFactor('aal2', true)).toBeNull()
  expect(reasonOf(maySetUpFactor('aal1', true))).toBe('forbidden:mfaAal2Required')
})

test('using a factor: verified ones by anyone; unverified ones never by a pending sign-in', () => {
  expect(mayUseFactor({ kind: 'pending' }, 'verified', true)).toBeNull()
  expect(mayUseFactor({ kind: 'session', aal: 'aal1' }, 'verified', true)).toBeNull()
  expect(reasonOf(mayUseFactor({ kind: 'pending' }, 'unverified', false))).toBe('not_found:mfaFactorNotFound')
  expect(reasonOf(mayUseFactor({ kind: 'session', aal: 'aal1' }, 'unverified', true))).toBe(
    'forbidden:mfaAal2Required',
  )
  expect(mayUseFactor({ kind: 'session', aal: 'aal1' }, 'unverified', false)).toBeNull()
})

test('protected changes need aal2', () => {
  expect(mayChangeProtectedSettings('aal2')).toBeNull()
  expect(reasonOf(mayChangeProtectedSettings('aal1'))).toBe('forbidden:mfaAal2Required')
})

test('the factor limit counts the factors that remain', () => {
  expect(mayAddFactor(MFA_LIMITS.maxFactors - 1)).toBeNull()
  expect(reasonOf(mayAddFactor(MFA_LIMITS.maxFactors))).toBe('invalid:mfaTooManyFactors')
})

test('levels, stale enrolments, exhausted sign-ins and per-account limits', () => {
  expect(sessionAal({ aal: 'aal2' })).toBe('aal2')
  expect(sessionAal({ aal: 'something' })).toBe('aal1')
  expect(sessionAal({})).toBe('aal1')
  const now = new Date('2026-01-02T00:00:00Z')
  expect(staleEnrolmentCutoff(now).toISOString()).toBe('2026-01-01T00:00:00.000Z')
  expect(signInExhausted(MFA_LIMITS.attemptsPerSignIn - 1)).toBe(false)
  expect(signInExhausted(MFA_LIMITS.attemptsPerSignIn)).toBe(true)
  expect(accountLimitRule('verify', 2)).toEqual({
    limit: MFA_LIMITS.verificationsPerAccount * 2,
    windowSeconds: MFA_LIMITS.accountWindowSeconds,
  })
  expect(accountLimitRule('sms')).toEqual({ limit: MFA_LIMITS.smsPerAccountPerHour, windowSeconds: 3600 })
})

test('re-authentication: the password whenever the account has one; otherwise a fresh session (and a confirmation to delete)', () => {
  const now = new Date('2026-01-01T12:00:00Z')
  const fresh = new Date(now.getTime() - 5 * 60_000)
  const stale = new Date(now.getTime() - 11 * 60_000)
  const base = { passwordHash: '$argon2id$…', passwordGiven: false, sessionCreatedAt: fresh, confirmed: true }
  // A session seconds old is no substitute for the password.
  expect(reasonOf(reauthenticationStep(base, { now }))).toBe('invalid:invalidPassword')
  expect(reauthenticationStep({ ...base, passwordGiven: true }, { now })).toBe('check-password')
  const google = { ...base, passwordHash: null }
  expect(reauthenticationStep(google, { now })).toBe('ok')
  expect(reasonOf(reauthenticationStep({ ...google, sessionCreatedAt: stale }, { now }))).toBe(
    'forbidden:reauthRequired',
  )
  expect(
    reasonOf(reauthenticationStep({ ...google, confirmed: false }, { now, requireConfirmation: true })),
  ).toBe('invalid:confirmationRequired')
  expect(reauthenticationStep(google, { now, requireConfirmation: true })).toBe('ok')
})
