import type { BrowserContext } from '@playwright/test'
import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { paymentStandInURL, paymentsDataDir, paymentsURL } from '../../playwright.config.ts'
import { plainPng } from '../support/photo-fixtures.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'
import { backdateShipping, insertSignedInAccount, latestEmail } from './outbox.ts'

// A whole order in one go, in both languages, on the site with PayPal and Stripe
// configured (pointing at the local payment stand-in): a customer sends two links through the
// form; a moderator prices and approves them; the customer gets the quote (in the app and by
// e-mail, in their language), pays on the provider's page and comes back to it paid; the
// customer and staff both see it paid, with the receipt, the history and the notifications;
// then the warehouse, the shipment (packed, paid, shipped with a Japan Post number) and its end:
// delivered (es) or lost and refunded at 50 % (en).
// The e-mails wait in the outbox here (no SMTP on this server); tests/system/order-emails.test.ts
// sends them over SMTP. Axe checks each page at 375 and 1280 px.

const LOCALES = { es: esLocale, en: enLocale }

// 2 × 2,500 + 1 × 1,200 = 6,200 of items; service fee 3 × 500 = 1,500; tax 10 % of 7,700 = 770;
// domestic shipping 800 + 0 (not taxed): 9,270 yen.
const TOTAL = { es: '9.270 JPY', en: 'JPY 9,270' }

/** Spaces as Intl writes them (no-break) or as a person types them: the same. */
const spaced = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s'))
/** A locale text with its {{params}} filled in. */
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '')

/** Who this browser is: one signed session cookie replaces the other. */
async function actAs(context: BrowserContext, cookie: string) {
  await context.addCookies([
    { name: 'better-auth.session_token', value: cookie, url: paymentsURL, httpOnly: true, sameSite: 'Lax' },
  ])
}

test.use({ baseURL: paymentsURL })

for (const [language, provider] of [
  ['es', 'paypal'],
  ['en', 'stripe'],
] as const) {
  test(`an order from two links to its delivery or its lost-parcel refund; customer and staff see every step (${language}, ${provider})`, async ({
    page,
    context,
  }) => {
    // Four people's pages, a provider's page and eight axe scans: slow on a busy machine (4 to
    // 4.3 minutes each on an idle one with both running side by side, 2026-11-26).
    test.setTimeout(600_000)
    const t = LOCALES[language]
    const email = uniqueEmail(`lifecycle-${language}`)
    const customer = await insertSignedInAccount({ email, name: 'Camila Rojas', language }, paymentsDataDir)
    const moderator = await insertSignedInAccount(
      { email: uniqueEmail(`lifecycle-mod-${language}`), name: 'Mod', role: 'moderator', language },
      paymentsDataDir,
    )

    // 1. The customer sends two links.
    await actAs(context, customer.cookie)
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/user-dashboard?lang=${language}&currency=JPY`)
    await waitForHydration(page)
    await page.getByLabel(t.requests.url, { exact: true }).fill('https://jp.mercari.com/item/m424242')
    await page.getByLabel(t.requests.quantity, { exact: true }).fill('2')
    await page.getByRole('button', { name: t.requests.addItem }).click()
    await page
      .getByLabel(t.requests.url, { exact: true })
      .nth(1)
      .fill('https://www.amazon.co.jp/dp/B0C1234567')
    await page.getByRole('button', { name: t.requests.send }).click()
    await expect(page).toHaveURL(/\/user-dashboard\/requests\/[0-9a-f-]{36}$/)
    const requestPath = new URL(page.url()).pathname
    const id = requestPath.split('/').at(-1) ?? ''
    await expect(page.locator('article header')).toContainText(t.requests.status.submitted)
    const number = (await page.getByRole('heading', { level: 1 }).textContent())?.match(/PR-\d{6}/)?.[0] ?? ''
    expect(number).toMatch(/^PR-\d{6}$/)

    // 2. A moderator prices both items and approves the quote.
    await actAs(context, moderator.cookie)
    await page.goto(`/admin-dashboard/requests/${id}?lang=${language}`)
    await waitForHydration(page)
    const titles = page.getByLabel(t.quote.title, { exact: true })
    const prices = page.getByLabel(t.quote.unitPrice, { exact: true })
    const shipping = page.getByLabel(t.quote.domesticShipping, { exact: true })
    await titles.nth(0).fill('Figura Miku')
    await prices.nth(0).fill('2,500')
    await shipping.nth(0).fill('800')
    await titles.nth(1).fill('Libro de arte')
    await prices.nth(1).fill('1200')
    await shipping.nth(1).fill('0')
    await page.getByRole('button', { name: t.quote.save }).click()
    await expect(page.getByRole('status').filter({ hasText: t.quote.saved })).toBeVisible()
    await expect(page.getByTestId('quote-total').first()).toHaveText(spaced(TOTAL[language]))
    await page.getByRole('button', { name: t.quote.approve }).click()
    await expect(page.getByRole('status').filter({ hasText: /\d{4}-\d{6}/ })).toBeVisible()
    await expect(page.getByRole('main')).toContainText(t.queue.statuses.quoted)

    // 3. The customer is told in the app and by e-mail, in their language, and pays.
    const quoteTitle = fill(t.customerNotifications.quote_ready.title, { number, totalJpy: TOTAL[language] })
    const quoteMail = await latestEmail(email, {
      subject: quoteTitle.split(':')[0],
      dataDir: paymentsDataDir,
    })
    expect(quoteMail.subject.replace(/\s/g, ' ')).toContain(quoteTitle.replace(/\s/g, ' '))
    expect(quoteMail.link).toBe(`${paymentsURL}${requestPath}`)
    await actAs(context, customer.cookie)
    await page.goto(`/user-dashboard/notifications?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('main')).toContainText(spaced(quoteTitle))
    await axeAtBothWidths(page, `notifications-quote-${language}`)

    await page.goto(`${requestPath}?lang=${language}`)
    await waitForHydration(page)
    const panel = page.getByRole('region', { name: t.payment.heading, exact: true })
    await expect(page.getByTestId('quote-total')).toContainText(spaced(TOTAL[language]))
    await axeAtBothWidths(page, `request-quoted-${language}`)
    await panel.getByRole('button', { name: t.payment.payWith[provider], exact: true }).click()
    await page.waitForURL(`${paymentStandInURL}/pay/**`)
    await expect(page.getByText(/9,270/)).toBeVisible()
    await page.getByRole('button', { name: 'Approve payment' }).click()

    // 4. Back on the request: paid, the receipt, the history, the notification and the e-mail.
    await page.waitForURL(`${paymentsURL}${requestPath}`)
    await expect(page.locator('article header')).toContainText(t.requests.status.paid)
    await expect(panel.getByTestId('payment-total')).toHaveText(spaced(TOTAL[language]))
    await expect(page.getByRole('main')).toContainText(t.requests.events.pay)
    await axeAtBothWidths(page, `request-paid-${language}`)
    await panel.getByRole('link', { name: t.payment.receipt }).click()
    await expect(page.getByTestId('invoice-status')).toContainText(
      t.receipt.statusPaid.replace(' {{date}}', ''),
    )
    await expect(page.getByTestId('invoice-total')).toContainText(spaced(TOTAL[language]))
    await expect(page.getByRole('main')).toContainText('Figura Miku')
    await expect(page.getByRole('main')).toContainText('Camila Rojas')
    await axeAtBothWidths(page, `invoice-${language}`)

    const paidTitle = fill(t.customerNotifications.payment_received.title, {
      number,
      amountJpy: TOTAL[language],
    })
    const paidMail = await latestEmail(email, { subject: paidTitle.split(':')[0], dataDir: paymentsDataDir })
    expect(paidMail.subject.replace(/\s/g, ' ')).toContain(paidTitle.replace(/\s/g, ' '))
    await page.goto(`/user-dashboard/notifications?lang=${language}`)
    await expect(page.getByRole('main')).toContainText(spaced(paidTitle))

    // Staff see it paid, with the provider's payment.
    await actAs(context, moderator.cookie)
    await page.goto(`/admin-dashboard/requests/${id}?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('main')).toContainText(t.queue.statuses.paid)
    await expect(page.getByTestId('payment-succeeded')).toContainText(t.payments.providers[provider])
    await axeAtBothWidths(page, `staff-request-paid-${language}`)

    // 5. The moderator marks both items bought, then books the first one in when its parcel
    // arrives: its weight, a shelf, a photo.
    const warehouse = page.getByRole('region', { name: t.arrival.heading, exact: true })
    await warehouse.getByRole('button', { name: fill(t.arrival.markOrdered, { count: '2' }) }).click()
    await expect(page.getByRole('status').filter({ hasText: t.arrival.markedOrdered })).toBeVisible()
    await expect(page.getByRole('main')).toContainText(t.queue.statuses.in_progress)
    await page.getByRole('link', { name: t.arrival.bookLink }).click()
    await expect(page).toHaveURL(`${paymentsURL}/admin-dashboard/requests/${id}/arrival`)
    await waitForHydration(page)
    await axeAtBothWidths(page, `arrival-${language}`)
    const first = page.getByRole('group', {
      name: fill(t.arrival.itemLegend, { number: '1', host: 'jp.mercari.com' }),
    })
    await first.getByLabel(t.arrival.received).check()
    await first.getByLabel(t.arrival.weight).fill('1250')
    await page.getByLabel(t.arrival.shelf).fill('A-3')
    await page.getByLabel(t.arrival.note).fill('Caja un poco golpeada / box slightly dented')
    await page.getByLabel(t.arrival.photos).setInputFiles({
      name: 'box.png',
      mimeType: 'image/png',
      buffer: await plainPng(640, 480),
    })
    await page.getByRole('button', { name: t.arrival.submit }).click()
    await expect(page).toHaveURL(`${paymentsURL}/admin-dashboard/requests/${id}`)
    await expect(page.getByRole('status').filter({ hasText: t.arrival.booked })).toBeVisible()
    const booked = page.getByRole('region', { name: t.arrival.heading, exact: true })
    await expect(booked).toContainText(/PK-\d{6}/)
    await expect(booked.getByRole('img')).toHaveCount(1)
    await axeAtBothWidths(page, `request-warehouse-${language}`)

    // 5b. The shop could not supply item 2: an admin marks it unavailable; its price, fee and
    // tax (1,200 + 500 + 170 = 1,870 yen) become a refund due on the payment.
    const owner = await insertSignedInAccount(
      { email: uniqueEmail(`lifecycle-admin-${language}`), name: 'Admin', role: 'admin', language },
      paymentsDataDir,
    )
    await actAs(context, owner.cookie)
    await page.goto(`/admin-dashboard/requests/${id}?lang=${language}`)
    await waitForHydration(page)
    await page.getByText(t.arrival.unavailableHeading).click()
    const itemTwo = fill(t.arrival.unavailableReason, { item: '2 (amazon.co.jp)' })
    await page.getByLabel(itemTwo).fill(language === 'es' ? 'Agotado en la tienda' : 'Sold out at the shop')
    await page
      .getByRole('button', { name: fill(t.arrival.unavailableSubmit, { item: '2 (amazon.co.jp)' }) })
      .click()
    await expect(page.getByRole('status').filter({ hasText: t.arrival.unavailableDone })).toBeVisible()
    await expect(page.getByRole('main')).toContainText(
      spaced(fill(t.payments.refundDue, { amount: language === 'es' ? '1.870 JPY' : 'JPY 1,870' })),
    )
    await axeAtBothWidths(page, `request-unavailable-${language}`)

    // 6. The customer is told (in the app and by e-mail) and finds the item in the shipping tab
    // with its photo, weight and free days.
    const arrivedTitle = fill(t.customerNotifications.items_arrived.title, { number })
    const arrivedMail = await latestEmail(email, { subject: arrivedTitle, dataDir: paymentsDataDir })
    expect(arrivedMail.link).toBe(`${paymentsURL}/user-dashboard/shipping`)
    await actAs(context, customer.cookie)
    await page.goto(`/user-dashboard/notifications?lang=${language}`)
    await expect(page.getByRole('main')).toContainText(arrivedTitle)
    // On the request: where each item is.
    await page.goto(`${requestPath}?lang=${language}`)
    await expect(page.getByTestId('item-status')).toHaveText([
      `${t.requests.itemStatus.received} · ${t.requests.seeShipping}`,
      t.requests.itemStatus.unavailable,
    ])
    await expect(page.getByRole('main')).toContainText(t.requests.events.item_unavailable)
    await page.goto(`/user-dashboard/shipping?lang=${language}`)
    await waitForHydration(page)
    const stored = page.getByRole('region', { name: fill(t.shippingTab.storedHeading, { count: '1' }) })
    await expect(stored).toContainText('Figura Miku')
    await expect(stored).toContainText(spaced(language === 'es' ? '1250 g' : '1,250 g'))
    await expect(stored).toContainText(
      fill(t.shippingTab.daysLeft_other, { count: '30', date: '' }).split('(')[0] ?? '',
    )
    const photo = stored.getByRole('img')
    await expect(photo).toHaveCount(1)
    await expect(photo).toHaveJSProperty('complete', true)
    expect(await photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
    await axeAtBothWidths(page, `shipping-tab-${language}`)

    // 6b. A second request (one plush toy): quoted, paid by bank transfer that an admin records
    // (1,800 + 500 + 10 % tax = 2,530 yen), bought and booked in (300 g).
    await page.goto(`/user-dashboard?lang=${language}&currency=JPY`)
    await waitForHydration(page)
    await page.getByLabel(t.requests.url, { exact: true }).fill('https://www.suruga-ya.jp/product/detail/602')
    await page.getByRole('button', { name: t.requests.send }).click()
    await expect(page).toHaveURL(/\/user-dashboard\/requests\/[0-9a-f-]{36}$/)
    const secondId = new URL(page.url()).pathname.split('/').at(-1) ?? ''
    await actAs(context, moderator.cookie)
    await page.goto(`/admin-dashboard/requests/${secondId}?lang=${language}`)
    await waitForHydration(page)
    await page.getByLabel(t.quote.title, { exact: true }).fill('Peluche Pikachu')
    await page.getByLabel(t.quote.unitPrice, { exact: true }).fill('1800')
    await page.getByLabel(t.quote.domesticShipping, { exact: true }).fill('0')
    await page.getByRole('button', { name: t.quote.save }).click()
    await expect(page.getByRole('status').filter({ hasText: t.quote.saved })).toBeVisible()
    await page.getByRole('button', { name: t.quote.approve }).click()
    await expect(page.getByRole('main')).toContainText(t.queue.statuses.quoted)
    await actAs(context, owner.cookie)
    await page.goto(`/admin-dashboard/requests/${secondId}?lang=${language}`)
    await waitForHydration(page)
    await page.getByLabel(t.payments.record.amount).fill('2530')
    await page.getByLabel(t.payments.record.reference).fill(`BANK ${language} ${id.slice(0, 8)}`)
    await page.getByRole('button', { name: t.payments.record.submit }).click()
    await expect(page.getByRole('main')).toContainText(t.queue.statuses.paid)
    await actAs(context, moderator.cookie)
    await page.goto(`/admin-dashboard/requests/${secondId}?lang=${language}`)
    await waitForHydration(page)
    await page
      .getByRole('region', { name: t.arrival.heading, exact: true })
      .getByRole('button', { name: fill(t.arrival.markOrdered, { count: '1' }) })
      .click()
    await expect(page.getByRole('status').filter({ hasText: t.arrival.markedOrdered })).toBeVisible()
    await page.getByRole('link', { name: t.arrival.bookLink }).click()
    await waitForHydration(page)
    const plush = page.getByRole('group', {
      name: fill(t.arrival.itemLegend, { number: '1', host: 'suruga-ya.jp' }),
    })
    await plush.getByLabel(t.arrival.received).check()
    await plush.getByLabel(t.arrival.weight).fill('300')
    await page.getByLabel(t.arrival.shelf).fill('B-1')
    await page.getByRole('button', { name: t.arrival.submit }).click()
    await expect(page.getByRole('status').filter({ hasText: t.arrival.booked })).toBeVisible()
    await actAs(context, customer.cookie)

    // 7. The customer adds an address in Chile, ticks both items (two requests: consolidation is
    // free), sees the estimate (1,250 g + 300 g + 200 g of packing) and asks to ship; the items
    // wait in the shipment and staff find it in their queue.
    await page.goto(`/user-dashboard/profile/addresses/new?lang=${language}`)
    await waitForHydration(page)
    await page.getByLabel(t.profile.fullName, { exact: true }).fill('Camila Rojas')
    await page.getByLabel(t.profile.country, { exact: true }).selectOption('CL')
    await page.getByLabel(t.profile.street, { exact: true }).fill('Av. Providencia 1234')
    await page.getByLabel(t.profile.city, { exact: true }).fill('Santiago')
    await page.getByLabel(t.profile.addressPhone, { exact: true }).fill('+56 9 1234 5678')
    await page.getByRole('button', { name: t.profile.saveAddress }).click()
    await expect(page).toHaveURL(/\/user-dashboard\/profile$/)
    await page.goto(`/user-dashboard/shipping?lang=${language}`)
    await waitForHydration(page)
    for (const box of await page.getByLabel(t.shipments.select).all()) await box.check()
    await page.getByLabel(t.shipments.methods.economic).check()
    await page.getByRole('button', { name: t.shipments.estimateButton }).click()
    const estimate = page.getByRole('status', { name: new RegExp(t.shipments.estimateHeading) })
    await expect(estimate).toContainText(spaced(language === 'es' ? '1750 g' : '1,750 g'))
    await expect(estimate).toContainText(t.shipments.routes.direct)
    await axeAtBothWidths(page, `shipping-estimate-${language}`)
    await page.getByRole('button', { name: t.shipments.requestButton }).click()
    await expect(page).toHaveURL(/\/user-dashboard\/shipments\/[0-9a-f-]{36}$/)
    await expect(page.getByTestId('shipment-status')).toHaveText(t.shipments.statuses.requested)
    const shipmentNumber =
      (await page.getByRole('heading', { level: 1 }).textContent())?.match(/SH-\d{6}/)?.[0] ?? ''
    expect(shipmentNumber).toMatch(/^SH-\d{6}$/)
    await axeAtBothWidths(page, `shipment-${language}`)
    await page.goto(`/user-dashboard/shipping?lang=${language}`)
    await expect(page.getByRole('main')).toContainText(
      fill(t.shipments.inShipment, { number: shipmentNumber }),
    )

    await actAs(context, moderator.cookie)
    await page.goto(`/admin-dashboard/shipments?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('link', { name: shipmentNumber })).toBeVisible()
    await axeAtBothWidths(page, `staff-shipments-${language}`)
    await page.getByRole('link', { name: shipmentNumber }).click()
    await expect(page.getByRole('main')).toContainText('A-3')
    await axeAtBothWidths(page, `staff-shipment-${language}`)

    // 8. The moderator packs it: 1,500 g, its size and a photo of the box; the price comes from
    // the rate table (economy to Chile) and the shipping receipt goes to the customer.
    const shipmentPath = new URL(page.url()).pathname
    const shipmentId = shipmentPath.split('/').at(-1) ?? ''
    await waitForHydration(page)
    await page.getByLabel(t.staffShipments.weight).fill('1500')
    await page.getByLabel(t.staffShipments.length).fill('30')
    await page.getByLabel(t.staffShipments.width).fill('20')
    await page.getByLabel(t.staffShipments.height).fill('15')
    await page.getByLabel(t.staffShipments.photo).setInputFiles({
      name: 'packed.png',
      mimeType: 'image/png',
      buffer: await plainPng(640, 480),
    })
    await page.getByRole('button', { name: t.staffShipments.pack }).click()
    await expect(page).toHaveURL(`${paymentsURL}${shipmentPath}`)
    await expect(page.getByRole('status').filter({ hasText: t.staffShipments.packed })).toBeVisible()
    await expect(page.getByTestId('packed-weight')).toContainText(
      spaced(language === 'es' ? '1500 g' : '1,500 g'),
    )
    await axeAtBothWidths(page, `staff-shipment-packed-${language}`)

    // 9. The customer is told, sees the box and pays the receipt on the provider's page.
    const packedTitle = fill(t.customerNotifications.shipment_packed.title, {
      number: shipmentNumber,
      totalJpy: '',
    })
    const packedMail = await latestEmail(email, {
      subject: packedTitle.split(':')[0],
      dataDir: paymentsDataDir,
    })
    expect(packedMail.link).toBe(`${paymentsURL}/user-dashboard/shipments/${shipmentId}`)
    await actAs(context, customer.cookie)
    await page.goto(`/user-dashboard/shipments/${shipmentId}?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByTestId('shipment-status')).toHaveText(t.shipments.statuses.packed)
    const box = page.getByRole('region', { name: t.shipments.packedHeading })
    await expect(box.getByRole('img', { name: t.shipments.boxPhoto })).toHaveJSProperty('complete', true)
    await expect(page.getByRole('main')).toContainText(t.shipments.customs)
    await axeAtBothWidths(page, `shipment-packed-${language}`)
    const shippingPanel = page.getByRole('region', { name: t.payment.heading, exact: true })
    const shippingTotal = (await shippingPanel.getByTestId('payment-total').textContent()) ?? ''
    await shippingPanel.getByRole('button', { name: t.payment.payWith[provider], exact: true }).click()
    await page.waitForURL(`${paymentStandInURL}/pay/**`)
    await page.getByRole('button', { name: 'Approve payment' }).click()
    await page.waitForURL(`${paymentsURL}/user-dashboard/shipments/${shipmentId}`)
    await expect(page.getByTestId('shipment-status')).toHaveText(t.shipments.statuses.paid)
    // The shipping receipt's own message, not the quote's (docs/decisions/034).
    await expect(page.getByText(t.toasts.shippingPaymentReceived.title)).toBeVisible()
    await expect(shippingPanel.getByTestId('payment-total')).toHaveText(shippingTotal)
    // The box names its receipt (the payment panel does not repeat the link).
    await box
      .getByRole('link', { name: new RegExp(fill(t.shipments.receiptLink, { number: '' }).trim()) })
      .click()
    await expect(page.getByRole('main')).toContainText(fill(t.receipt.shipment, { number: shipmentNumber }))
    await expect(page.getByRole('main')).toContainText(t.receipt.notTaxableShipping)
    await axeAtBothWidths(page, `shipping-receipt-${language}`)

    // 10. The moderator hands it to Japan Post; the customer gets the number and the link.
    await actAs(context, moderator.cookie)
    await page.goto(`${shipmentPath}?lang=${language}`)
    await waitForHydration(page)
    await page.getByLabel(t.staffShipments.trackingNumber).fill('EE123456786JP')
    await page.getByRole('button', { name: t.staffShipments.ship }).click()
    await expect(page.getByText(t.staffShipments.claimErrors.trackingCheckDigit)).toBeVisible()
    await page.getByLabel(t.staffShipments.trackingNumber).fill('ee 123456785 jp')
    await page.getByRole('button', { name: t.staffShipments.ship }).click()
    await expect(page.getByRole('status').filter({ hasText: t.staffShipments.shippedNotice })).toBeVisible()
    await actAs(context, customer.cookie)
    await page.goto(`/user-dashboard/shipments/${shipmentId}?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByTestId('tracking-number')).toHaveText('EE123456785JP')
    await expect(
      page.getByRole('link', { name: fill(t.shipments.follow, { carrier: 'Japan Post' }) }),
    ).toHaveAttribute('href', /trackings\.post\.japanpost\.jp\/.*EE123456785JP/)
    await axeAtBothWidths(page, `shipment-shipped-${language}`)

    if (language === 'es') {
      // 11a. It arrives: the customer confirms.
      await page.getByRole('button', { name: t.shipments.confirm }).click()
      await expect(page.getByTestId('shipment-status')).toHaveText(t.shipments.statuses.delivered)
      await expect(page.getByRole('main')).toContainText(t.shipments.events.deliver)
      // 12a. The second request is over: every item delivered, nothing owed (docs/decisions/034).
      await page.goto(`/user-dashboard/requests/${secondId}?lang=${language}`)
      await expect(page.getByRole('main')).toContainText(t.requests.status.completed)
      await expect(page.getByTestId('request-completed')).toHaveText(t.requests.completedNotice)
      // The first still owes item 2's refund: an admin sends it through PayPal.
      await page.goto(`${requestPath}?lang=${language}`)
      await expect(page.getByRole('main')).toContainText(t.requests.status.in_progress)
      await expect(page.getByTestId('refund-row')).toContainText(
        t.refunds.onItsWay.split('{{date}}')[0]?.trim() ?? '',
      )
      await actAs(context, owner.cookie)
      await page.goto(`/admin-dashboard/requests/${id}?lang=${language}`)
      await waitForHydration(page)
      await page
        .getByRole('button', {
          name: spaced(fill(t.payments.refundThrough, { amount: '1.870 JPY', provider: 'PayPal' })),
        })
        .click()
      // Money leaves at once: a dialog asks first, with the amount (docs/decisions/037).
      const refundDialog = page.getByRole('dialog')
      await expect(refundDialog).toContainText(spaced('1.870 JPY'))
      await refundDialog
        .getByRole('button', { name: spaced(fill(t.payments.refundConfirm, { amount: '1.870 JPY' })) })
        .click()
      await expect(page.getByRole('status').filter({ hasText: t.payments.notices.refundSent })).toBeVisible()
      await expect(page.getByRole('main')).toContainText(t.queue.statuses.completed)
      await actAs(context, customer.cookie)
      await page.goto(`/user-dashboard/notifications?lang=${language}`)
      await expect(page.getByRole('main')).toContainText(
        spaced(fill(t.customerNotifications.refund_sent.title, { amountJpy: '1.870 JPY', number })),
      )
      await expect(page.getByRole('main')).toContainText(
        fill(t.customerNotifications.request_completed.title, { number }),
      )
      await page.goto(`${requestPath}?lang=${language}`)
      await expect(page.getByTestId('request-completed')).toBeVisible()
      await expect(page.getByTestId('refund-row')).toContainText(
        t.refunds.sentOn.split('{{date}}')[0]?.trim() ?? '',
      )
      await axeAtBothWidths(page, `request-completed-${language}`)
      await page.goto(`/user-dashboard/payments?lang=${language}`)
      await waitForHydration(page)
      await expect(page.getByTestId('money-row')).toHaveCount(4)
      await expect(page.getByRole('main')).toContainText(fill(t.refunds.reasons.unavailable, { detail: '2' }))
      await axeAtBothWidths(page, `money-${language}`)
      return
    }
    // 11b. It never arrives: after the waiting days the customer reports it; an admin confirms
    // it lost and half of the items' value is refunded: (2 × 2,500) / 2 + 1,800 / 2 = 3,400 yen,
    // on the two requests' payments.
    await expect(page.getByRole('main')).toContainText(t.shipments.claimWait.split('{{date}}')[0] ?? '')
    await backdateShipping(shipmentNumber, 31, paymentsDataDir)
    await page.reload()
    await waitForHydration(page)
    await page.getByLabel(t.shipments.claimNote).fill('Nothing arrived')
    await page.getByRole('button', { name: t.shipments.claimSubmit }).click()
    await expect(page.getByRole('status').filter({ hasText: t.shipments.claimed })).toBeVisible()
    await actAs(context, owner.cookie)
    await page.goto(`${shipmentPath}?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByTestId('staff-claim-status')).toHaveText(t.staffShipments.claimStatus.open)
    await axeAtBothWidths(page, `staff-claim-${language}`)
    await page.getByLabel(t.staffShipments.resolutionLost).check()
    await page.getByLabel(t.staffShipments.resolutionReason).fill('Japan Post confirmed it lost')
    await page.getByRole('button', { name: t.staffShipments.resolve }).click()
    await expect(page.getByTestId('staff-claim-status')).toContainText(spaced('JPY 3,400'))
    await actAs(context, customer.cookie)
    await page.goto(`/user-dashboard/shipments/${shipmentId}?lang=${language}`)
    await expect(page.getByTestId('shipment-status')).toHaveText(t.shipments.statuses.lost)
    await expect(page.getByTestId('claim-status')).toContainText(spaced('JPY 3,400'))
    await axeAtBothWidths(page, `shipment-lost-${language}`)

    // 12b. The halves (and item 2's refund) go back: through Stripe on the first request's
    // payment, by hand on the second's bank transfer; each request completes with its refund,
    // and the shipment says the refund was sent (docs/decisions/034).
    await actAs(context, owner.cookie)
    await page.goto(`/admin-dashboard/requests/${id}?lang=${language}`)
    await waitForHydration(page)
    await page
      .getByRole('button', {
        name: spaced(fill(t.payments.refundThrough, { amount: 'JPY 4,370', provider: 'Stripe' })),
      })
      .click()
    // Money leaves at once: a dialog asks first, with the amount (docs/decisions/037).
    const refundDialog = page.getByRole('dialog')
    await expect(refundDialog).toContainText(spaced('JPY 4,370'))
    await refundDialog
      .getByRole('button', { name: spaced(fill(t.payments.refundConfirm, { amount: 'JPY 4,370' })) })
      .click()
    await expect(page.getByRole('status').filter({ hasText: t.payments.notices.refundSent })).toBeVisible()
    await expect(page.getByRole('main')).toContainText(t.queue.statuses.completed)
    await page.goto(`/admin-dashboard/requests/${secondId}?lang=${language}`)
    await waitForHydration(page)
    await page.getByLabel(t.payments.refundReference).fill(`BANK-REFUND-${id.slice(0, 8)}`)
    await page.getByRole('button', { name: t.payments.markRefundDone }).click()
    await expect(page.getByRole('status').filter({ hasText: t.payments.notices.refundMarked })).toBeVisible()
    await expect(page.getByRole('main')).toContainText(t.queue.statuses.completed)
    await actAs(context, customer.cookie)
    await page.goto(`/user-dashboard/shipments/${shipmentId}?lang=${language}`)
    await expect(page.getByTestId('claim-status')).toContainText(
      t.shipments.claimStatus.lostRefunded.split('{{refund}}')[0]?.trim() ?? '',
    )
    await page.goto(`/user-dashboard/requests?lang=${language}`)
    await expect(page.getByTestId('request-row').filter({ hasText: number })).toContainText(
      t.requests.status.completed,
    )
    await page.goto(`/user-dashboard/payments?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('main')).toContainText(
      fill(t.refunds.reasons.lost_parcel, { detail: shipmentNumber }),
    )
    await axeAtBothWidths(page, `money-${language}`)
  })
}
