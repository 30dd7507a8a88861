import { expect, test } from 'vitest'
import { redactUrl } from './logger.ts'

test('request URLs are logged without reset or verification tokens', () => {
  expect(redactUrl('/api/auth/reset-password/AbC123xyz?callbackURL=%2Fauth%2Freset-password')).toBe(
    '/api/auth/reset-password/[redacted]?callbackURL=%2Fauth%2Freset-password',
  )
  expect(redactUrl('/auth/reset-password?token=AbC123xyz')).toBe('/auth/reset-password?token=[redacted]')
  expect(redactUrl('/api/auth/verify-email?token=eyJhbGciOi.x.y&callbackURL=%2Fauth%3Fverified%3Dtrue')).toBe(
    '/api/auth/verify-email?token=[redacted]&callbackURL=%2Fauth%3Fverified%3Dtrue',
  )
  expect(redactUrl('/api/auth/callback/google?state=s3cr3t&code=4%2F0Ab&scope=email')).toBe(
    '/api/auth/callback/google?state=[redacted]&code=[redacted]&scope=email',
  )
  // Spelled otherwise, or repeated: still found.
  expect(redactUrl('/x?TOKEN=a&%74oken=b&token&lang=en')).toBe(
    '/x?TOKEN=[redacted]&%74oken=[redacted]&token=[redacted]&lang=en',
  )
  expect(redactUrl('/services?lang=en')).toBe('/services?lang=en')
  expect(redactUrl('/')).toBe('/')
})

test('the WhatsApp subscription check does not leave its verify token in the logs', () => {
  expect(
    redactUrl(
      '/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=s3cret-verify-token&hub.challenge=42',
    ),
  ).toBe('/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=[redacted]&hub.challenge=42')
})
