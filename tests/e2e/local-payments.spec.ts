import pg from 'pg'
import { dlocalStandInURL, paymentsDataDir, paymentsURL } from '../../playwright.config.ts'
import { runningEmbeddedUrl } from '../../server/embedded-postgres.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertSignedInAccount, latestEmail } from './outbox.ts'
import { insertQuote } from './payments.ts'

// Paying a quote by OXXO through dLocal (its local stand-in), in both languages: a customer with
// a Mexican address sees the local methods, gets a voucher in pesos on the page and by e-mail,
// pays it later at the "shop" (the stand-in's voucher page sends the signed notification), and
// the page says paid, with the e-mail; a voucher left to expire is told and the ways to pay come
// back. Axe at 375 and 1280 pixels.

const WORDS = {
  en: {
    payment: 'Payment',
    local: 'Pay in your currency from Latin America',
    country: 'Country you pay from',
    oxxo: 'Pay cash at OXXO',
    issued: 'Done: here is your payment slip.',
    voucher: 'Your OXXO payment slip',
    reference: 'Reference',
    open: 'See the slip to print or show at the store',
    voucherEmail: 'Your OXXO payment slip for',
    paidOn: 'Paid on',
    paidEmail: 'Payment received for',
  },
  es: {
    payment: 'Pago',
    local: 'Pagar en tu moneda desde Latinoamérica',
    country: 'País desde el que pagas',
    oxxo: 'Pagar en efectivo en OXXO',
    issued: 'Listo: aquí está tu ficha de pago.',
    voucher: 'Tu ficha de pago OXXO',
    reference: 'Referencia',
    open: 'Ver la ficha para imprimir o mostrar en la tienda',
    voucherEmail: 'Tu ficha de pago OXXO para',
    paidOn: 'Pagado el',
    paidEmail: 'Recibimos el pago de',
  },
} as const

async function addMexicanAddress(userId: string) {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(paymentsDataDir) })
  await client.connect()
  try {
    await client.query(
      `INSERT INTO addresses (user_id, full_name, street, city, region, postal_code, country, phone, is_default)
       VALUES ($1, 'Ana López', 'Av. Reforma 1', 'Ciudad de México', 'CDMX', '06600', 'MX', '+52 55 1234 5678', true)`,
      [userId],
    )
  } finally {
    await client.end()
  }
}

test.describe('dLocal OXXO (the stand-in)', () => {
  test.use({ baseURL: paymentsURL })

  async function customerWithQuote(
    context: import('@playwright/test').BrowserContext,
    language: 'es' | 'en',
    label: string,
  ) {
    const email = uniqueEmail(label)
    const account = await insertSignedInAccount({ email, name: 'Ana López', language }, paymentsDataDir)
    await addMexicanAddress(account.id)
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
    return { email, quote }
  }

  for (const language of ['es', 'en'] as const) {
    test(`a customer pays a quote with an OXXO voucher, paid later at the shop (${language})`, async ({
      page,
      context,
    }) => {
      test.setTimeout(180_000)
      const words = WORDS[language]
      const { email, quote } = await customerWithQuote(context, language, `oxxo-${language}`)
      await page.goto(`/user-dashboard/requests/${quote.requestId}?lang=${language}`)
      await waitForHydration(page)
      const panel = page.getByRole('region', { name: words.payment, exact: true })
      const local = panel.getByRole('region', { name: words.local })
      await expect(local.getByLabel(words.country)).toHaveValue('MX')
      await expect(local.getByRole('button', { name: words.oxxo })).toBeVisible()
      await axeAtBothWidths(page)

      await local.getByRole('button', { name: words.oxxo }).click()
      await expect(page.getByRole('status').filter({ hasText: words.issued })).toBeVisible()
      const voucher = page.getByTestId('payment-voucher')
      await expect(voucher).toContainText(words.voucher)
      await expect(voucher).toContainText(/MXN\s?869\.50/)
      await expect(voucher.getByText(/^\d{14}$/)).toBeVisible()
      // At 375 pixels the voucher (its long barcode too) fits the screen: nothing to scroll sideways.
      await page.setViewportSize({ width: 375, height: 740 })
      await voucher.scrollIntoViewIfNeeded()
      const box = await voucher.boundingBox()
      expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(375)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
      await axeAtBothWidths(page)
      const mail = await latestEmail(email, { subject: words.voucherEmail, dataDir: paymentsDataDir })
      expect(mail.text).toMatch(/869\.50/)
      expect(mail.link).toContain(`/user-dashboard/requests/${quote.requestId}`)

      // Later, at the shop: the stand-in's voucher page takes the cash and notifies our webhook.
      await voucher.getByRole('link', { name: words.open }).click()
      await page.waitForURL(`${dlocalStandInURL}/vouchers/**`)
      await page.getByRole('button', { name: 'Pay', exact: true }).click()
      await expect(page.getByText('Status: PAID')).toBeVisible()
      await page.goto(`${paymentsURL}/user-dashboard/requests/${quote.requestId}`)
      await expect(panel).toContainText(words.paidOn)
      await expect(page.getByTestId('payment-voucher')).toHaveCount(0)
      const paid = await latestEmail(email, { subject: words.paidEmail, dataDir: paymentsDataDir })
      expect(paid.subject).toContain(quote.requestNumber)
    })
  }

  test('a voucher left to expire is told, and the ways to pay come back (es)', async ({ page, context }) => {
    test.setTimeout(120_000)
    const words = WORDS.es
    const { email, quote } = await customerWithQuote(context, 'es', 'oxxo-expire')
    await page.goto(`/user-dashboard/requests/${quote.requestId}?lang=es`)
    await waitForHydration(page)
    await page.getByRole('button', { name: words.oxxo }).click()
    const voucher = page.getByTestId('payment-voucher')
    await voucher.getByRole('link', { name: words.open }).click()
    await page.getByRole('button', { name: 'Let it expire' }).click()
    await expect(page.getByText('Status: EXPIRED')).toBeVisible()
    await page.goto(`${paymentsURL}/user-dashboard/requests/${quote.requestId}`)
    await expect(page.getByTestId('payment-voucher')).toHaveCount(0)
    await expect(page.getByRole('button', { name: words.oxxo })).toBeVisible()
    const mail = await latestEmail(email, {
      subject: `${words.voucherEmail} ${quote.requestNumber} venció`,
      dataDir: paymentsDataDir,
    })
    expect(mail.text).toContain('no se cobró nada')
  })
})
