import type { BrowserContext } from '@playwright/test'
import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { e2eDataDir } from '../../playwright.config.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertSignedInAccount } from './outbox.ts'
import { insertQuote } from './payments.ts'

// The staff's day and a customer's bank transfer, in both languages (docs/decisions/036): the
// customer sees their quote's amounts in "My requests", opens the payment panel from there, reads
// who pays the transfer fees and says "I have paid" with a PDF of the bank's receipt; the page then
// says it is being checked. The admin's bell counts the staff's own notice, the landing page has
// the payment to confirm, the payments page lists it with its receipt, and the admin records the
// transfer on the request page; the customer's list shows it paid. A moderator's landing page has
// only the work they may do. Axe on every page at 375 and 1280 px.

const LOCALES = { es: esLocale, en: enLocale }
// insertQuotedRequest's default: 2 × 2,500 + 2 × 500 fee, tax 10 % of 6,000 = 600, shipping 800.
const TOTAL = { es: '7.400 JPY', en: 'JPY 7,400' }

/** Spaces as Intl writes them (no-break) or as a person types them: the same. */
const spaced = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s'))
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '')

async function actAs(context: BrowserContext, baseURL: string, cookie: string) {
  await context.addCookies([
    { name: 'better-auth.session_token', value: cookie, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
}

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

for (const language of ['es', 'en'] as const) {
  test(`a bank transfer reported by the customer, confirmed from the staff's work for today (${language})`, async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(300_000)
    const t = LOCALES[language]
    const base = baseURL ?? ''
    const customer = await insertSignedInAccount({
      email: uniqueEmail(`transfer-${language}`),
      name: 'Valentina Ruiz',
      language,
    })
    const admin = await insertSignedInAccount({
      email: uniqueEmail(`today-admin-${language}`),
      name: 'Kenji',
      role: 'admin',
      language,
    })
    const moderator = await insertSignedInAccount({
      email: uniqueEmail(`today-mod-${language}`),
      name: 'Mika',
      role: 'moderator',
      language,
    })
    const quoted = await insertQuote(e2eDataDir, customer.id, { locale: language })

    // 1. "My requests": the quote's amounts and a way to pay it.
    await actAs(context, base, customer.cookie)
    await page.goto(`/user-dashboard/requests?lang=${language}&currency=JPY`)
    await waitForHydration(page)
    const row = page.getByTestId('request-row').filter({ hasText: quoted.requestNumber })
    await expect(row.getByTestId('request-total')).toHaveText(spaced(TOTAL[language]))
    await expect(row).toContainText(t.requests.amounts.serviceFee)
    await axeAtBothWidths(page, `my-requests-amounts-${language}`)
    await row
      .getByRole('link', {
        name: spaced(
          fill(t.requests.amounts.payLabel, { amount: TOTAL[language], number: quoted.requestNumber }),
        ),
      })
      .click()
    await expect(page).toHaveURL(new RegExp(`/user-dashboard/requests/${quoted.requestId}#payment-heading$`))
    await waitForHydration(page)

    // 2. The bank details say who pays the fees; "I have paid" with a PDF of the receipt.
    const bank = page.getByTestId('bank-transfer')
    await expect(bank).toContainText(spaced(fill(t.payment.bankFees, { amount: TOTAL[language] })))
    await page.getByLabel(t.payment.transfer.proof).setInputFiles({
      name: 'comprobante.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    })
    await page.getByLabel(t.payment.transfer.note).fill('Valentina Ruiz, Banco de Chile')
    await axeAtBothWidths(page, `report-transfer-form-${language}`)
    await page.getByRole('button', { name: t.payment.transfer.submit }).click()
    await expect(page.getByRole('status').filter({ hasText: t.payment.transfer.reported })).toBeVisible()
    const checking = page.getByTestId('transfer-reported')
    await expect(checking).toContainText(t.payment.transfer.checkingHint)
    await expect(checking.getByRole('link', { name: t.payment.transfer.seeProof })).toBeVisible()
    await expect(page.getByRole('button', { name: t.payment.transfer.submit })).toHaveCount(0)
    await axeAtBothWidths(page, `transfer-being-checked-${language}`)
    await page.goto(`/user-dashboard/requests?lang=${language}`)
    await expect(page.getByTestId('request-row').filter({ hasText: quoted.requestNumber })).toContainText(
      t.requests.amounts.beingChecked,
    )

    // 3. The admin: the bell counts the staff's notice and opens their list.
    await actAs(context, base, admin.cookie)
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/admin-dashboard?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.today.title)
    const payments = page.getByTestId('work-payments')
    await expect(payments).not.toHaveAttribute('data-count', '0')
    await expect(page.getByTestId('work-messages')).toBeVisible()
    await axeAtBothWidths(page, `work-today-admin-${language}`)
    const bell = page.getByRole('banner').getByTestId('header-notifications').filter({ visible: true })
    await expect(bell).toHaveAttribute('href', '/admin-dashboard/notifications')
    await expect(bell).not.toHaveAttribute('data-unread', '0')
    await bell.click()
    await expect(page).toHaveURL(/\/admin-dashboard\/notifications/)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.staffNotificationsPage.title)
    const notice = page.getByTestId('notification').filter({
      hasText: fill(t.staffNotifications.transfer_reported.title, { number: quoted.requestNumber }),
    })
    await expect(notice).toHaveCount(1)
    await expect(notice).toContainText('Valentina Ruiz')
    await axeAtBothWidths(page, `staff-notifications-${language}`)
    await page.getByRole('button', { name: t.notificationsPage.markAllRead }).click()
    await expect(page.getByTestId('unread-count')).toHaveText(t.notificationsPage.allReadNow)

    // 4. From the work for today to the payments to confirm, then to the request.
    await page.goto(`/admin-dashboard?lang=${language}`)
    await waitForHydration(page)
    await page.getByTestId('work-payments').getByRole('link').click()
    await expect(page).toHaveURL(/\/admin-dashboard\/payments/)
    await waitForHydration(page)
    const reported = page.getByTestId('reported-transfer').filter({ hasText: quoted.requestNumber })
    await expect(reported).toContainText('Banco de Chile')
    await expect(reported.getByRole('link', { name: t.toConfirm.proofPdf })).toHaveAttribute(
      'href',
      /\/user-dashboard\/transfer-proofs\/[0-9a-f-]{36}$/,
    )
    await axeAtBothWidths(page, `payments-to-confirm-${language}`)
    await reported.getByRole('link', { name: quoted.requestNumber }).click()
    await waitForHydration(page)
    await expect(page.getByTestId('transfer-pending')).toContainText('Banco de Chile')
    await axeAtBothWidths(page, `staff-request-transfer-${language}`)
    await page.getByLabel(t.payments.record.amount).fill(language === 'es' ? '7.400' : '7,400')
    await page.getByLabel(t.payments.record.reference).fill(`BANCO ${language} ${quoted.requestNumber}`)
    await page.getByRole('button', { name: t.payments.record.submit }).click()
    await expect(page.getByRole('main')).toContainText(t.queue.statuses.paid)
    await expect(page.getByTestId('transfer-pending')).toHaveCount(0)

    // 5. The customer's list: paid.
    await actAs(context, base, customer.cookie)
    await page.goto(`/user-dashboard/requests?lang=${language}`)
    const paidRow = page.getByTestId('request-row').filter({ hasText: quoted.requestNumber })
    await expect(paidRow).toContainText(t.requests.amounts.total.paid)
    await expect(paidRow.getByRole('link', { name: t.requests.amounts.pay })).toHaveCount(0)

    // 6. A moderator's work for today: no money, no contact inbox.
    await actAs(context, base, moderator.cookie)
    await page.goto(`/admin-dashboard?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByTestId('work-quote')).toBeVisible()
    await expect(page.getByTestId('work-buy')).toBeVisible()
    await expect(page.getByTestId('work-payments')).toHaveCount(0)
    await expect(page.getByTestId('work-messages')).toHaveCount(0)
    await axeAtBothWidths(page, `work-today-moderator-${language}`)
  })
}
