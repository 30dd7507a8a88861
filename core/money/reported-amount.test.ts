import { expect, test } from 'vitest'
import enAdmin from '#app/locales/en/admin.ts'
import enEmails from '#app/locales/en/emails.ts'
import esAdmin from '#app/locales/es/admin.ts'
import { notificationValues } from '#core/notifications/notification-values.ts'
import { formatMoney, formatReportedAmount } from './money.ts'

// "Reported JPY 18,719 JPY" (issue 27): a provider's amount is written once, with its currency.

test('a reported amount carries its currency once', () => {
  expect(formatReportedAmount(18719, 'JPY', 'en')).toBe(formatMoney(18719, 'JPY', 'en'))
  expect(formatReportedAmount(18719, 'JPY', 'en').match(/JPY/g)).toHaveLength(1)
  expect(formatReportedAmount(125, 'EUR', 'en')).toMatch(/^EUR\s?125/)
  expect(formatReportedAmount(5, 'ZZZ', 'es')).toMatch(/ZZZ/)
  const written = notificationValues({ amount: 18719, currency: 'JPY', expectedJpy: 18000 }, 'en')
  expect(written.amount).toBe(formatMoney(18719, 'JPY', 'en'))
})

test('the texts that show it do not add the currency again', () => {
  for (const text of [
    enAdmin.payments.reported,
    esAdmin.payments.reported,
    enEmails.staffNotifications.payment_held.body,
  ])
    expect(text).not.toContain('{{currency}}')
})
