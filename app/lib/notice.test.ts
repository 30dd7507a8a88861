import { expect, test } from 'vitest'
import { translator } from '#app/i18n.server.ts'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import { shownNotice } from './notice.server.ts'
import { NOTICES, type NoticeName, parseNotice, paymentReturnNotice, serializeNotice } from './notice.ts'

// The one notice channel (docs/decisions/010). Each money event its own message (docs/decisions/
// 034): back from the provider, a quote paid says the items are bought next, a shipping receipt
// paid says the box leaves next, a second payment says it goes back.

test('back from the provider: the notice follows what happened and what was paid for', () => {
  const statuses = ['succeeded', 'pending', 'failed', 'held', 'duplicate', 'refunded'] as const
  const table = Object.fromEntries(
    statuses.map((status) => [
      status,
      [paymentReturnNotice(status, 'request'), paymentReturnNotice(status, 'shipment')],
    ]),
  )
  expect(table).toEqual({
    succeeded: ['paymentReceived', 'shippingPaymentReceived'],
    pending: ['paymentPending', 'paymentPending'],
    failed: ['paymentFailed', 'paymentFailed'],
    held: ['paymentReview', 'paymentReview'],
    duplicate: ['paymentDuplicate', 'paymentDuplicate'],
    refunded: ['paymentReturned', 'paymentReturned'],
  })
})

test('every notice has its words in both languages, and only failures are shown as failures', () => {
  for (const language of ['es', 'en'] as const) {
    const t = translator(language)
    for (const [name, spec] of Object.entries(NOTICES) as [NoticeName, { title: string; text?: string }][]) {
      for (const key of [spec.title, spec.text].filter((key) => key !== undefined)) {
        expect(t(key), `${language} ${name}: ${key}`).not.toBe(key)
        expect(t(key).trim(), `${language} ${name}`).not.toBe('')
      }
    }
  }
  const failures = Object.keys(NOTICES).filter(
    (name) => shownNotice({ name: name as NoticeName }, 'en')?.failure,
  )
  expect(failures).toEqual(['signOutFailed', 'paymentFailed'])
  // The shipping receipt's words are not the quote's.
  expect(en.toasts.shippingPaymentReceived.text).not.toBe(en.toasts.paymentReceived.text)
  expect(es.toasts.shippingPaymentReceived.text).not.toMatch(/compraremos/)
})

test('a notice names what it is about, translated in the visitor’s language', () => {
  const notice = parseNotice(
    serializeNotice({ name: 'quoteApproved', params: { number: 'INV-2026-000042' } }),
  )
  expect(notice).toEqual({ name: 'quoteApproved', params: { number: 'INV-2026-000042' } })
  expect(shownNotice(notice, 'en')).toEqual({
    title: en.quote.approved.replace('{{number}}', 'INV-2026-000042'),
    text: null,
    failure: false,
  })
  expect(shownNotice(notice, 'es')?.title).toContain('INV-2026-000042')
  expect(shownNotice({ name: 'signedIn' }, 'es')).toEqual({
    title: es.toasts.signedIn.title,
    text: es.toasts.signedIn.text,
    failure: false,
  })
  expect(shownNotice(null, 'es')).toBeNull()
  expect(serializeNotice('signedIn')).toBe('signedIn')
  expect(parseNotice('signedIn')).toEqual({ name: 'signedIn' })
  expect(parseNotice('toString')).toBeNull()
  expect(parseNotice('{"name":"__proto__"}')).toBeNull()
})

test('a parameter that names a catalogue term is read in the visitor’s language; anything else is shown as sent', () => {
  const assigned = parseNotice(serializeNotice({ name: 'roleAssigned', params: { role: 'admin' } }))
  expect(shownNotice(assigned, 'en')?.text).toBe(
    en.roles.assignedText.replace('{{role}}', en.session.roles.admin),
  )
  expect(shownNotice(assigned, 'es')?.text).toBe(
    es.roles.assignedText.replace('{{role}}', es.session.roles.admin),
  )
  // Not a plain word: never used as a key.
  const odd = shownNotice({ name: 'roleAssigned', params: { role: '../errors' } }, 'en')
  expect(odd?.text).toBe(en.roles.assignedText.replace('{{role}}', '../errors'))
})
