import { expect, test } from 'vitest'
import en from '#app/locales/en.ts'
import es from '#app/locales/es.ts'
import { FLASH_MESSAGES, paymentReturnMessage } from './flash.ts'

// Each money event its own message (docs/decisions/034): back from the provider, a quote paid
// says the items are bought next, a shipping receipt paid says the box leaves next, a second
// payment says it goes back; every message has its words in both languages.

test('back from the provider: the message follows what happened and what was paid for', () => {
  const statuses = ['succeeded', 'pending', 'failed', 'held', 'duplicate', 'refunded'] as const
  const table = Object.fromEntries(
    statuses.map((status) => [
      status,
      [paymentReturnMessage(status, 'request'), paymentReturnMessage(status, 'shipment')],
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

test('every flash message has a title and a text in both languages', () => {
  for (const dictionary of [en, es]) {
    const toasts = dictionary.toasts as Record<string, { title?: string; text?: string }>
    for (const message of FLASH_MESSAGES) {
      expect(toasts[message]?.title, message).toBeTruthy()
      expect(toasts[message]?.text, message).toBeTruthy()
    }
  }
  // The shipping receipt's words are not the quote's.
  expect(en.toasts.shippingPaymentReceived.text).not.toBe(en.toasts.paymentReceived.text)
  expect(es.toasts.shippingPaymentReceived.text).not.toMatch(/compraremos/)
})
