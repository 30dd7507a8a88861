import { HOTP, TOTP as OtpauthTotp, Secret } from 'otpauth'

/**
 * RFC 6238 as authenticator apps implement it: HMAC-SHA1, 6 digits, 30-second steps, one step
 * either side for clock drift. The algorithm and base32 are otpauth's (pinned); what is ours is
 * the one-use-per-step rule: `matchTotp` says which step a code belongs to, and the factor store
 * accepts only a step newer than the last one accepted (`last_used_step`).
 */
export const TOTP = { digits: 6, periodSeconds: 30, secretBytes: 20, window: 1 } as const

/** RFC 4648 base32 without padding: how authenticator apps take a secret. */
export function base32Encode(bytes: Uint8Array): string {
  return new Secret({ buffer: Uint8Array.from(bytes).buffer }).base32
}

export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase()
  if (!/^[A-Z2-7]*$/.test(clean)) throw new Error('not base32')
  return new Uint8Array(Secret.fromBase32(clean).bytes)
}

/** A new random secret, base32 (160 bits, as RFC 4226 recommends). */
export function generateTotpSecret(): string {
  return new Secret({ size: TOTP.secretBytes }).base32
}

/** The RFC 4226 code of one counter value. */
export function hotp(secret: Uint8Array, counter: number, digits: number = TOTP.digits): string {
  return HOTP.generate({ secret: new Secret({ buffer: Uint8Array.from(secret).buffer }), counter, digits })
}

export function timeStep(now: Date = new Date()): number {
  return Math.floor(now.getTime() / 1000 / TOTP.periodSeconds)
}

/**
 * The time step a code belongs to, within one step either side of now (clock drift), or null.
 * Callers refuse a step at or below the last one accepted, so each code works once.
 */
export function matchTotp(secretBase32: string, code: string, now: Date = new Date()): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const delta = OtpauthTotp.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    digits: TOTP.digits,
    period: TOTP.periodSeconds,
    timestamp: now.getTime(),
    window: TOTP.window,
  })
  return delta === null ? null : timeStep(now) + delta
}

/** The otpauth:// URI authenticator apps read from the QR code. */
export function otpauthUri({ issuer, account, secret }: { issuer: string; account: string; secret: string }) {
  return new OtpauthTotp({
    issuer,
    label: account,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP.digits,
    period: TOTP.periodSeconds,
  }).toString()
}
