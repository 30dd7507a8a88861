import { e2eDataDir, paymentStandInURL, paymentsDataDir, paymentsURL } from '../../playwright.config.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertSignedInAccount, latestEmail } from './outbox.ts'
import { insertQuote } from './payments.ts'

// Paying a quote, in both languages. On the site with PayPal and Stripe configured (pointing at
// the local payment stand-in): the customer picks a provider, approves on the stand-in's pay
// page, comes back to the request paid, and gets the e-mail. On the default site (no provider,
// as a fresh `npm start`): the customer sees the bank-transfer details, an admin records the
// transfer, the customer sees it paid. Axe checks the new parts at 1280 and 375 pixels.

const WORDS = {
  en: {
    payment: 'Payment',
    payWith: { paypal: 'Pay with PayPal or a card', stripe: 'Pay by card' },
    paidToast: 'Payment received',
    paidOn: 'Paid on',
    paidStatus: 'Paid',
    receipt: 'See your receipt',
    receiptPaid: 'Paid on',
    bankHeading: 'Pay by bank transfer',
    iHavePaid: 'I have paid',
    reference: 'Reference',
    payments: 'Payments',
    amount: 'Amount received (yen)',
    bankReference: 'Bank reference',
    record: 'Record payment',
    recorded: 'Payment recorded: the request is paid.',
    mismatch: 'The amount must be exactly the quote’s total.',
    emailSubject: 'Payment received for',
  },
  es: {
    payment: 'Pago',
    payWith: { paypal: 'Pagar con PayPal o tarjeta', stripe: 'Pagar con tarjeta' },
    paidToast: 'Pago recibido',
    paidOn: 'Pagado el',
    paidStatus: 'Pagada',
    receipt: 'Ver tu recibo',
    receiptPaid: 'Pagada el',
    bankHeading: 'Pagar por transferencia bancaria',
    iHavePaid: 'Ya pagué',
    reference: 'Referencia',
    payments: 'Pagos',
    amount: 'Monto recibido (yenes)',
    bankReference: 'Referencia bancaria',
    record: 'Registrar pago',
    recorded: 'Pago registrado: la solicitud está pagada.',
    mismatch: 'El monto debe ser exactamente el total de la cotización.',
    emailSubject: 'Recibimos el pago de',
  },
} as const

test.describe('with PayPal and Stripe (the stand-in)', () => {
  test.use({ baseURL: paymentsURL })

  for (const [language, provider] of [
    ['es', 'stripe'],
    ['en', 'paypal'],
  ] as const) {
    test(`a customer pays a quote on the ${provider} page and comes back to it paid (${language})`, async ({
      page,
      context,
    }) => {
      test.setTimeout(180_000)
      const words = WORDS[language]
      const email = uniqueEmail(`pay-${provider}`)
      const account = await insertSignedInAccount({ email, name: 'Ana Pérez', language }, paymentsDataDir)
      await context.addCookies([
        {
          name: 'better-auth.session_token',
          value: account.cookie,
          url: paymentsURL,
          httpOnly: true,
          sameSite: 'Lax',
        },
      ])
      const quote = await insertQuote(paymentsDataDir, account.id, { locale: language })
      await page.goto(`/user-dashboard/requests/${quote.requestId}?lang=${language}`)
      await waitForHydration(page)
      const panel = page.getByRole('region', { name: words.payment, exact: true })
      await expect(page.getByTestId('quote-total')).toContainText(/7[.,]400/)
      await expect(panel.getByRole('button', { name: words.payWith.paypal })).toBeVisible()
      await expect(panel.getByRole('button', { name: words.payWith.stripe, exact: true })).toBeVisible()
      await axeAtBothWidths(page)

      await panel.getByRole('button', { name: words.payWith[provider], exact: true }).click()
      await page.waitForURL(`${paymentStandInURL}/pay/**`)
      await expect(page.getByText(/7,400/)).toBeVisible()
      await page.getByRole('button', { name: 'Approve payment' }).click()

      await page.waitForURL(`${paymentsURL}/user-dashboard/requests/${quote.requestId}`)
      await expect(page.getByRole('status').filter({ hasText: words.paidToast })).toBeVisible()
      await expect(panel).toContainText(words.paidOn)
      await expect(panel.getByTestId('payment-total')).toHaveText(/7[.,]400/)
      await expect(page.locator('article header')).toContainText(words.paidStatus)
      await expect(panel.getByRole('button')).toHaveCount(0)
      await axeAtBothWidths(page)

      // The receipt says it is paid.
      await panel.getByRole('link', { name: words.receipt }).click()
      await expect(page.getByTestId('invoice-status')).toContainText(words.receiptPaid)
      await expect(page.getByTestId('invoice-total')).toContainText(/7[.,]400/)

      const mail = await latestEmail(email, { subject: words.emailSubject, dataDir: paymentsDataDir })
      expect(mail.subject).toContain(quote.requestNumber)
      expect(mail.link).toContain(`/user-dashboard/requests/${quote.requestId}`)
    })
  }
})

test.describe('without JavaScript', () => {
  test.use({ baseURL: paymentsURL, javaScriptEnabled: false })

  test('the pay button answers with a link to the provider, and paying works the same', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000)
    const account = await insertSignedInAccount(
      { email: uniqueEmail('pay-nojs'), name: 'Ana Pérez', language: 'en' },
      paymentsDataDir,
    )
    await context.addCookies([
      {
        name: 'better-auth.session_token',
        value: account.cookie,
        url: paymentsURL,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ])
    const quote = await insertQuote(paymentsDataDir, account.id, { locale: 'en' })
    await page.goto(`/user-dashboard/requests/${quote.requestId}?lang=en`)
    const panel = page.getByRole('region', { name: WORDS.en.payment, exact: true })
    await panel.getByRole('button', { name: WORDS.en.payWith.stripe, exact: true }).click()
    await panel.getByRole('link', { name: 'Continue to the card payment page' }).click()
    await page.waitForURL(`${paymentStandInURL}/pay/**`)
    await page.getByRole('button', { name: 'Approve payment' }).click()
    await page.waitForURL(`${paymentsURL}/user-dashboard/requests/${quote.requestId}`)
    await expect(panel).toContainText(WORDS.en.paidOn)
  })
})

for (const language of ['es', 'en'] as const) {
  test(`bank transfer: the customer sees the details, an admin records the transfer, the customer sees it paid (${language})`, async ({
    page,
    browser,
    signInAs,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    const words = WORDS[language]
    const customer = await signInAs({ email: uniqueEmail('pay-bank'), language })
    const quote = await insertQuote(e2eDataDir, customer.id, { locale: language })
    await page.goto(`/user-dashboard/requests/${quote.requestId}?lang=${language}`)
    await waitForHydration(page)
    const panel = page.getByRole('region', { name: words.payment, exact: true })
    await expect(panel.getByRole('heading', { name: words.bankHeading })).toBeVisible()
    const bank = panel.getByTestId('bank-transfer')
    await expect(bank).toContainText(quote.invoiceNumber)
    await expect(bank).toContainText('Demo Bank')
    // No provider on this site: no "Pay with…" button; the one action is saying the transfer is made.
    for (const name of Object.values(words.payWith))
      await expect(panel.getByRole('button', { name })).toHaveCount(0)
    await expect(panel.getByRole('button', { name: words.iHavePaid, exact: true })).toHaveCount(1)
    await axeAtBothWidths(page)

    // An admin, in another browser.
    const adminEmail = uniqueEmail('pay-admin')
    const admin = await insertSignedInAccount({ email: adminEmail, name: 'Admin', language, role: 'admin' })
    const adminContext = await browser.newContext({ baseURL })
    await adminContext.addCookies([
      {
        name: 'better-auth.session_token',
        value: admin.cookie,
        url: baseURL ?? '',
        httpOnly: true,
        sameSite: 'Lax',
      },
    ])
    const adminPage = await adminContext.newPage()
    await adminPage.goto(`/admin-dashboard/requests/${quote.requestId}?lang=${language}`)
    await waitForHydration(adminPage)
    const payments = adminPage.getByRole('region', { name: words.payments, exact: true })
    await payments.getByLabel(words.amount).fill('7000')
    await payments.getByLabel(words.bankReference).fill(`TRANSFER ${quote.invoiceNumber}`)
    await payments.getByRole('button', { name: words.record }).click()
    await expect(payments.getByText(words.mismatch).first()).toBeVisible()
    await axeAtBothWidths(adminPage)
    await payments.getByLabel(words.amount).fill('7,400')
    await payments.getByRole('button', { name: words.record }).click()
    await expect(adminPage.getByRole('status').filter({ hasText: words.recorded })).toBeVisible()
    await expect(adminPage.getByTestId('payment-succeeded')).toContainText(`TRANSFER ${quote.invoiceNumber}`)
    await expect(payments.getByRole('button', { name: words.record })).toHaveCount(0)
    await axeAtBothWidths(adminPage)
    await adminContext.close()

    await page.reload()
    await expect(panel).toContainText(words.paidOn)
    await expect(panel.getByRole('link', { name: words.receipt })).toHaveAttribute(
      'href',
      `/user-dashboard/invoices/${quote.invoiceId}`,
    )
    await expect(page.locator('article header')).toContainText(words.paidStatus)
    await axeAtBothWidths(page)
  })
}
