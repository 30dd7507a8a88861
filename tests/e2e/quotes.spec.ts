import type { BrowserContext } from '@playwright/test'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { insertSignedInAccount } from './outbox.ts'

// Quotes, in both languages: a customer sends a link; staff (a moderator in Spanish, an admin in
// English) price it, see the engine's totals, approve it; the customer sees the quote in yen and
// in their currency and opens the printable receipt. Axe checks each new page at 1280 and 375 px.

const WORDS = {
  es: {
    url: 'Enlace al producto',
    quantity: 'Cantidad',
    send: 'Enviar solicitud',
    title: 'Título en la factura',
    price: 'Precio por unidad (yenes)',
    shipping: 'Envío dentro de Japón a nuestra oficina (yenes)',
    typed: 'Totales según lo escrito (sin guardar)',
    save: 'Guardar precios',
    saved: 'Precios guardados.',
    approve: 'Aprobar y enviar la cotización',
    approved: /Cotización enviada: factura \d{4}-\d{6}\./,
    total: '7.400 JPY',
    notWhole: 'Los yenes no tienen decimales.',
    quote: 'Tu cotización',
    usd: '≈ USD 50.32',
    seeReceipt: /Ver e imprimir la factura/,
    invoice: /Factura \d{4}-\d{6}/,
    open: 'Pendiente de pago',
    print: 'Imprimir o guardar como PDF',
    registration: 'Número de registro: T0000000000000',
    taxable: 'Subtotal con impuesto del 10 %',
  },
  en: {
    url: 'Link to the item',
    quantity: 'Quantity',
    send: 'Send request',
    title: 'Title on the invoice',
    price: 'Price per unit (yen)',
    shipping: 'Shipping in Japan to our office (yen)',
    typed: 'Totals as typed (not saved yet)',
    save: 'Save prices',
    saved: 'Prices saved.',
    approve: 'Approve and send the quote',
    approved: /Quote sent: invoice \d{4}-\d{6}\./,
    total: 'JPY 7,400',
    notWhole: 'Yen have no decimals.',
    quote: 'Your quote',
    usd: '≈ USD 50.32',
    seeReceipt: /See and print invoice/,
    invoice: /Invoice \d{4}-\d{6}/,
    open: 'Waiting for payment',
    print: 'Print or save as PDF',
    registration: 'Registration number: T0000000000000',
    taxable: 'Subtotal subject to 10% tax',
  },
} as const

/** Spaces as Intl writes them (no-break) or as a person types them: the same. */
const spaced = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s'))

/** Who this browser is: one signed session cookie replaces the other. */
async function actAs(context: BrowserContext, baseURL: string, cookie: string) {
  await context.addCookies([
    { name: 'better-auth.session_token', value: cookie, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
}

for (const language of ['es', 'en'] as const) {
  test(`staff price and approve a request; the customer sees the quote and its receipt (${language})`, async ({
    page,
    context,
    baseURL,
  }) => {
    // Ten axe scans and four pages of staff and customer work: slow on a busy machine.
    test.setTimeout(240_000)
    const words = WORDS[language]
    const base = baseURL ?? ''
    const customer = await insertSignedInAccount({
      email: uniqueEmail(`quotes-${language}`),
      name: 'Ana Pérez',
      language,
    })
    const staffRole = language === 'es' ? 'moderator' : 'admin'
    const staff = await insertSignedInAccount({
      email: uniqueEmail(`quotes-staff-${language}`),
      role: staffRole,
      language,
    })

    // The customer sends one link, two units.
    await actAs(context, base, customer.cookie)
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/user-dashboard?lang=${language}&currency=JPY`)
    await waitForHydration(page)
    await page.getByLabel(words.url, { exact: true }).fill('https://jp.mercari.com/item/m777')
    await page.getByLabel(words.quantity, { exact: true }).fill('2')
    await page.getByRole('button', { name: words.send }).click()
    await expect(page).toHaveURL(/\/user-dashboard\/requests\/[0-9a-f-]{36}$/)
    const requestPath = new URL(page.url()).pathname
    const id = requestPath.split('/').at(-1) ?? ''

    // Staff price it: a decimal is refused on the field; the totals follow what is typed.
    await actAs(context, base, staff.cookie)
    await page.goto(`/admin-dashboard/requests/${id}?lang=${language}`)
    await waitForHydration(page)
    await expect(page.locator(`a[href="https://jp.mercari.com/item/m777"]`)).toHaveAttribute(
      'target',
      '_blank',
    )
    await axeAtBothWidths(page)
    await page.getByLabel(words.title, { exact: true }).fill('Figura Miku')
    await page.getByLabel(words.price, { exact: true }).fill('2500.5')
    await page.getByRole('button', { name: words.save }).click()
    await expect(page.getByText(words.notWhole)).toBeVisible()
    await page.getByLabel(words.price, { exact: true }).fill('2,500')
    await page.getByLabel(words.shipping, { exact: true }).fill('800')
    await expect(page.getByText(words.typed)).toBeVisible()
    await page.getByRole('button', { name: words.save }).click()
    await expect(page.getByRole('status').filter({ hasText: words.saved })).toBeVisible()
    // 2 × 2,500 + 2 × 500 fee = 6,000; tax 600; + 800 shipping (not taxed) = 7,400.
    await expect(page.getByTestId('quote-total').first()).toHaveText(spaced(words.total))
    await page.getByRole('button', { name: words.approve }).click()
    await expect(page.getByRole('status').filter({ hasText: words.approved })).toBeVisible()
    await axeAtBothWidths(page)

    // Staff open the receipt: qualified-invoice details; printing leaves out the site's frame.
    await page.getByRole('link', { name: words.invoice }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.invoice)
    await expect(page.getByRole('main').getByText(words.registration)).toBeVisible()
    await expect(page.getByText(spaced(words.taxable))).toBeVisible()
    await expect(page.getByTestId('invoice-total')).toContainText(spaced(words.total))
    await axeAtBothWidths(page)

    // The customer sees the quote in yen and, having chosen dollars, about how much in USD.
    await actAs(context, base, customer.cookie)
    await page.goto(`${requestPath}?lang=${language}&currency=USD`)
    await waitForHydration(page)
    const quote = page.getByRole('region', { name: words.quote })
    await expect(quote).toBeVisible()
    await expect(quote.getByTestId('quote-total')).toContainText(spaced(words.total))
    await expect(quote.getByTestId('quote-total')).toContainText(spaced(words.usd))
    await axeAtBothWidths(page)
    await quote.getByRole('link', { name: words.seeReceipt }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.invoice)
    await expect(page.getByText(words.open, { exact: true })).toBeVisible()
    await expect(page.getByText('Ana Pérez', { exact: true })).toBeVisible()
    await waitForHydration(page)
    await expect(page.getByRole('button', { name: words.print })).toBeVisible()
    await axeAtBothWidths(page)
    await page.emulateMedia({ media: 'print' })
    await expect(page.getByRole('banner')).toBeHidden()
    await expect(page.getByRole('contentinfo')).toBeHidden()
    await expect(page.getByRole('button', { name: words.print })).toBeHidden()
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await page.emulateMedia({ media: 'screen' })
  })
}
