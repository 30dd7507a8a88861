import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** RFC 6238 as authenticator apps implement it: HMAC-SHA1, 6 digits, 30-second steps. */
export const TOTP = { digits: 6, periodSeconds: 30, secretBytes: 20, window: 1 } as const

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32 without padding: how authenticator apps take a secret. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0
  let value = 0
  let output = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      output += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) output += ALPHABET[(value << (5 - bits)) & 31]
  return output
}

export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase()
  const bytes: number[] = []
  let bits = 0
  let value = 0
  for (const char of clean) {
    const index = ALPHABET.indexOf(char)
    if (index === -1) throw new Error('not base32')
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Uint8Array.from(bytes)
}

/** A new random secret, base32 (160 bits, as RFC 4226 recommends). */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(TOTP.secretBytes))
}

/** The RFC 4226 code of one counter value. */
export function hotp(secret: Uint8Array, counter: number, digits: number = TOTP.digits): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const digest = createHmac('sha1', secret).update(message).digest()
  const offset = (digest.at(-1) ?? 0) & 0x0f
  const binary = digest.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, '0')
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
  const secret = base32Decode(secretBase32)
  const current = timeStep(now)
  let matched: number | null = null
  // Every candidate is computed and compared in constant time, whichever matches.
  for (let step = current - TOTP.window; step <= current + TOTP.window; step++) {
    const expected = Buffer.from(hotp(secret, step))
    if (timingSafeEqual(expected, Buffer.from(code)) && matched === null) matched = step
  }
  return matched
}

/** The otpauth:// URI authenticator apps read from the QR code. */
export function otpauthUri({ issuer, account, secret }: { issuer: string; account: string; secret: string }) {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const params = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP.digits),
    period: String(TOTP.periodSeconds),
  })
  return `otpauth://totp/${label}?${params.toString()}`
}
