import { e2eDataDir } from '../../playwright.config.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertSignedInAccount } from './outbox.ts'
import { insertQuote } from './payments.ts'

// The customer balance (docs/decisions/050), in both languages, on the default site (no
// provider, as a fresh `npm start`): an admin records a top-up that arrived by bank transfer on
// the customer's staff page, the customer pays a quote from the balance and reads every movement
// on their statement. Axe checks each page at 1280 and 375 pixels.

const WORDS = {
  en: {
    payment: 'Payment',
    recordTopUp: 'Record top-up',
    topUpRecorded: 'Top-up recorded. The customer was told.',
    amountWhole: 'Write a whole amount in yen, with no decimals or signs.',
    useBalance: 'Use my balance',
    paidToast: 'Paid from your balance.',
    paidWith: 'From your balance.',
    title: 'My balance',
    topup: 'Top-up',
    payment_: 'Payment',
    topUpAmount: 'JPY 10,000',
    left: 'JPY 2,600',
    csv: 'Download as CSV',
  },
  es: {
    payment: 'Pago',
    recordTopUp: 'Registrar recarga',
    topUpRecorded: 'Recarga registrada. Se avisó al cliente.',
    amountWhole: 'Escribe un monto entero en yenes, sin decimales ni signos.',
    useBalance: 'Usar mi saldo',
    paidToast: 'Pagado con tu saldo.',
    paidWith: 'Con tu saldo.',
    title: 'Mi saldo',
    topup: 'Recarga',
    payment_: 'Pago',
    topUpAmount: '10.000 JPY',
    left: '2.600 JPY',
    csv: 'Descargar en CSV',
  },
} as const

for (const language of ['es', 'en'] as const) {
  test(`a top-up by bank transfer recorded by an admin pays a quote; the statement shows both (${language})`, async ({
    page,
    browser,
    signInAs,
    baseURL,
  }) => {
    test.setTimeout(180_000)
    const words = WORDS[language]
    const customer = await signInAs({ email: uniqueEmail('balance'), language })
    const quote = await insertQuote(e2eDataDir, customer.id, { locale: language })

    // An admin, in another browser, records the transfer on the customer's page.
    const admin = await insertSignedInAccount({
      email: uniqueEmail('balance-admin'),
      name: 'Admin',
      language,
      role: 'admin',
    })
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
    await adminPage.goto(`/admin-dashboard/users/${customer.id}?lang=${language}`)
    await waitForHydration(adminPage)
    // A negative amount: the field says why, nothing recorded.
    await adminPage.locator('#topup-amount').fill('-100')
    await adminPage.locator('#topup-reference').fill('BANK-E2E-1')
    await adminPage.getByRole('button', { name: words.recordTopUp }).click()
    await expect(adminPage.getByText(words.amountWhole).first()).toBeVisible()
    await adminPage.locator('#topup-amount').fill('10,000')
    await adminPage.locator('#topup-reference').fill(`BANK-E2E-${language}-${Date.now()}`)
    await adminPage.getByRole('button', { name: words.recordTopUp }).click()
    await expect(adminPage.getByRole('status').filter({ hasText: words.topUpRecorded })).toBeVisible()
    await expect(adminPage.getByTestId('staff-balance-now')).toContainText(words.topUpAmount)
    await axeAtBothWidths(adminPage)
    await adminContext.close()

    // The customer pays the quote from the balance.
    await page.goto(`/user-dashboard/requests/${quote.requestId}?lang=${language}`)
    await waitForHydration(page)
    const panel = page.getByRole('region', { name: words.payment, exact: true })
    await expect(panel.getByTestId('balance-form')).toContainText(words.topUpAmount)
    await axeAtBothWidths(page)
    await panel.getByRole('button', { name: words.useBalance }).click()
    await expect(page.getByRole('status').filter({ hasText: words.paidToast }).first()).toBeVisible()
    await expect(panel).toContainText(words.paidWith)

    // The statement: both movements, newest first, with the running balance and a link to the request.
    await page.goto(`/user-dashboard/balance?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1, name: words.title })).toBeVisible()
    await expect(page.getByTestId('balance-now')).toHaveText(words.left)
    const rows = page.getByTestId('balance-row')
    await expect(rows).toHaveCount(2)
    await expect(rows.nth(0)).toContainText(words.payment_)
    await expect(rows.nth(0)).toContainText(quote.requestNumber)
    await expect(rows.nth(0)).toContainText(words.left)
    await expect(rows.nth(1)).toContainText(words.topup)
    await expect(rows.nth(1)).toContainText(words.topUpAmount)
    await expect(page.getByRole('link', { name: words.csv })).toHaveAttribute(
      'href',
      '/user-dashboard/balance.csv',
    )
    await axeAtBothWidths(page)
  })
}
