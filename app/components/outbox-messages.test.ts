import { expect, test } from 'vitest'
import enAdmin from '#app/locales/en/admin.ts'
import esAdmin from '#app/locales/es/admin.ts'
import { outboxWaiting } from './outbox-messages.tsx'

// The outbox pages say which provider is missing, never "no mail server" while SMTP_URL is set.

test('the outbox names only the provider that is missing', () => {
  expect(outboxWaiting({ email: true, sms: true })).toBe('both')
  expect(outboxWaiting({ email: false, sms: true })).toBe('sms')
  expect(outboxWaiting({ email: true, sms: false })).toBe('email')
  expect(outboxWaiting({ email: false, sms: false })).toBeNull()
  for (const admin of [enAdmin, esAdmin]) {
    const { lead, howToSend } = admin.adminOutbox
    expect(lead.sms).not.toMatch(/mail server|servidor de correo/)
    expect(howToSend.sms).not.toContain('SMTP_URL')
    expect(lead.email).toMatch(/mail server|servidor de correo/)
    expect(howToSend.email).not.toContain('TWILIO')
  }
})
