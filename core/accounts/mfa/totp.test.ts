import { expect, test } from 'vitest'
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  hotp,
  matchTotp,
  otpauthUri,
  timeStep,
} from './totp.ts'

// RFC 6238 appendix B, SHA-1 secret "12345678901234567890"; the last six digits of each 8-digit value.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'))
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
]

test('codes match the RFC 6238 test vectors', () => {
  for (const [seconds, eight] of RFC_VECTORS) {
    const secret = base32Decode(RFC_SECRET)
    expect(hotp(secret, Math.floor(seconds / 30), 8)).toBe(eight)
    const now = new Date(seconds * 1000)
    expect(matchTotp(RFC_SECRET, eight.slice(2), now)).toBe(timeStep(now))
  }
})

test('a code of the previous or next step is accepted (clock drift), two steps away is not', () => {
  const now = new Date(1_700_000_000_000)
  const secret = generateTotpSecret()
  const step = timeStep(now)
  const codeAt = (s: number) => hotp(base32Decode(secret), s)
  expect(matchTotp(secret, codeAt(step - 1), now)).toBe(step - 1)
  expect(matchTotp(secret, codeAt(step + 1), now)).toBe(step + 1)
  expect(matchTotp(secret, codeAt(step - 2), now)).toBeNull()
  expect(matchTotp(secret, codeAt(step + 2), now)).toBeNull()
})

test('malformed codes never match', () => {
  const secret = generateTotpSecret()
  for (const code of ['', '12345', '1234567', 'abcdef', '12 345', '١٢٣٤٥٦']) {
    expect(matchTotp(secret, code)).toBeNull()
  }
})

test('base32 round-trips and secrets carry 160 bits', () => {
  const bytes = Uint8Array.from([0, 1, 2, 250, 251, 252, 253, 254, 255])
  expect(base32Decode(base32Encode(bytes))).toEqual(bytes)
  expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI')
  const secret = generateTotpSecret()
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  expect(base32Decode(secret)).toHaveLength(20)
  expect(() => base32Decode('not*base32')).toThrow()
})

test('the otpauth URI names the issuer and account and carries the parameters apps need', () => {
  const uri = otpauthUri({ issuer: 'Japan Proxy', account: 'ana@example.com', secret: 'JBSWY3DPEHPK3PXP' })
  expect(uri).toBe(
    'otpauth://totp/Japan%20Proxy:ana%40example.com?issuer=Japan%20Proxy&secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
  )
})
