/** The `mfa.errors` key for an answer of our MFA endpoints (core/accounts/mfa/mfa-plugin.ts). */
export type MfaErrorKey =
  | 'required'
  | 'nameTooLong'
  | 'nameInvalid'
  | 'phoneInvalid'
  | 'codeFormat'
  | 'backupCodeFormat'
  | 'invalidCode'
  | 'expired'
  | 'tooMany'
  | 'signInExpired'
  | 'nameTaken'
  | 'tooManyFactors'
  | 'aal2Required'
  | 'wrongPassword'
  | 'reauth'
  | 'smsFailed'
  | 'notFound'
  | 'unexpected'

const BY_CODE: Record<string, MfaErrorKey> = {
  MFA_INVALID_CODE: 'invalidCode',
  MFA_CHALLENGE_EXPIRED: 'expired',
  MFA_TOO_MANY_ATTEMPTS: 'tooMany',
  MFA_SIGN_IN_EXPIRED: 'signInExpired',
  MFA_NO_PENDING_SIGN_IN: 'signInExpired',
  MFA_NAME_TAKEN: 'nameTaken',
  MFA_TOO_MANY_FACTORS: 'tooManyFactors',
  MFA_AAL2_REQUIRED: 'aal2Required',
  INVALID_PASSWORD: 'wrongPassword',
  MFA_REAUTH_REQUIRED: 'reauth',
  MFA_SMS_FAILED: 'smsFailed',
  MFA_FACTOR_NOT_FOUND: 'notFound',
}

const INPUT_KEYS = new Set<string>([
  'required',
  'nameTooLong',
  'nameInvalid',
  'phoneInvalid',
  'codeFormat',
  'backupCodeFormat',
])

export function mfaErrorKey(status: number, data: Record<string, unknown> | null): MfaErrorKey {
  const code = typeof data?.code === 'string' ? data.code : ''
  if (code === 'MFA_INVALID_INPUT' && typeof data?.message === 'string' && INPUT_KEYS.has(data.message)) {
    return data.message as MfaErrorKey
  }
  if (status === 429) return 'tooMany'
  return BY_CODE[code] ?? 'unexpected'
}

/** Our answer's status for a failed call: the auth handler's 4xx, and 502 for its 5xx. */
export function failureStatus(status: number) {
  return status >= 500 ? 502 : status >= 400 ? status : 400
}
