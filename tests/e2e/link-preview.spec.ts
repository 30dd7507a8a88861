import enLocale from '../../app/locales/en.ts'
import esLocale from '../../app/locales/es.ts'
import { formatMoney } from '../../core/money/money.ts'
import { SHOP_SAMPLES } from '../support/shop-stand-in/pages.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'

// Issue 31 in the browser, both languages: a customer pastes a shop's link and the item shows
// beside it (title, price, photo, read by the server from the local shop stand-in), the price
// fills the estimate until they type their own, a link that cannot be read leaves the form as
// it was; staff find the title and price prefilled on the quote page, and read the page again.
const LOCALES = { en: enLocale, es: esLocale } as const

for (const language of ['es', 'en'] as const) {
  test(`a pasted link shows its item and fills the estimate; staff start the quote from it (${language})`, async ({
    page,
    signInAs,
  }) => {
    test.slow()
    const t = LOCALES[language]
    const sample = language === 'es' ? SHOP_SAMPLES[0] : SHOP_SAMPLES[5]
    if (!sample) throw new Error('no sample')
    await signInAs({ email: uniqueEmail(`preview-${language}`), language })
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto(`/user-dashboard?lang=${language}&currency=JPY`)
    await waitForHydration(page)

    const first = page.getByRole('group', { name: language === 'es' ? 'Producto 1' : 'Item 1' })
    const price = first.getByLabel(t.requests.estimate.price, { exact: true })
    await first.getByLabel(t.requests.url, { exact: true }).fill(sample.url)
    const card = first.getByRole('figure', { name: t.linkPreview.label })
    await expect(card).toContainText(sample.title)
    await expect(card).toContainText(formatMoney(sample.priceYen, 'JPY', language))
    const photo = card.locator('img')
    await expect(photo).toHaveAttribute('src', /^\/api\/v1\/link-preview\/image\?url=/)
    // Loaded from this site, re-encoded (the stand-in's photo is 120 px wide).
    await expect
      .poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(120)
    await expect(price).toHaveValue(String(sample.priceYen))
    const live = first.locator('p[aria-live="polite"]')
    // The calculator's pricing with the default settings: ¥500 fee, 10 % tax rounded down.
    const total = (price: number) =>
      formatMoney(price + 500 + Math.floor((price + 500) * 0.1), 'JPY', language)
    await expect(live).toContainText(total(sample.priceYen))
    await page.screenshot({ path: `test-results/link-preview-form-${language}-375.png`, fullPage: true })
    await axeAtBothWidths(page, `link-preview-form-${language}`)

    // A link that cannot be read (the shop's page is gone): no card, no price, no error.
    await first.getByLabel(t.requests.url, { exact: true }).fill('https://jp.mercari.com/item/m404404')
    await expect(card).toHaveCount(0)
    await expect(price).toHaveValue('')
    await expect(first.getByRole('alert')).toHaveCount(0)

    // The customer's own price wins over the one read.
    await first.getByLabel(t.requests.url, { exact: true }).fill(sample.url)
    await expect(price).toHaveValue(String(sample.priceYen))
    await price.fill('1234')
    await expect(live).toContainText(
      formatMoney(1234 + 500 + Math.floor((1234 + 500) * 0.1), 'JPY', language),
    )
    await page.getByRole('button', { name: t.requests.send }).click()
    await expect(page.getByRole('status').filter({ hasText: /PR-\d{6}/ })).toBeVisible()
    await expect(page).toHaveURL(/\/user-dashboard\/requests\/[0-9a-f-]+/)
    const requestPath = new URL(page.url()).pathname

    // Staff: the title and the shop's price are prefilled, with when the page was read.
    await signInAs({ email: uniqueEmail(`preview-admin-${language}`), role: 'admin', language })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/admin-dashboard${requestPath.replace('/user-dashboard', '')}?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByLabel(t.quote.title, { exact: true })).toHaveValue(sample.title)
    await expect(page.getByLabel(t.quote.unitPrice, { exact: true })).toHaveValue(String(sample.priceYen))
    const staffCard = page.getByRole('figure', { name: t.linkPreview.label })
    await expect(staffCard).toContainText(sample.title)
    await expect(staffCard.locator('img')).toHaveAttribute('src', /^\/api\/v1\/link-preview\/image\?url=/)
    await page.screenshot({ path: `test-results/link-preview-staff-${language}-1280.png`, fullPage: true })
    await axeAtBothWidths(page, `link-preview-staff-${language}`)
    await staffCard.getByRole('button', { name: t.linkPreview.readAgain }).click()
    await expect(page.getByRole('status').filter({ hasText: t.linkPreview.readAgainDone })).toBeVisible()
  })
}

for (const language of ['es', 'en'] as const) {
  test(`the calculator reads an auction's link: its current bid fills the price until one is typed (${language})`, async ({
    page,
  }) => {
    const t = LOCALES[language]
    const auction = SHOP_SAMPLES.find((candidate) => candidate.shop === 'Yahoo! Auctions')
    if (!auction) throw new Error('no auction sample')
    await page.setViewportSize({ width: 800, height: 900 })
    await page.goto(`/calculator?lang=${language}`)
    await waitForHydration(page)
    const simulator = page.getByRole('region', { name: t.calculator.quote.heading })
    await simulator.getByLabel(t.calculator.quote.link, { exact: true }).fill(auction.url)
    const card = simulator.getByRole('figure', { name: t.linkPreview.label })
    await expect(card).toContainText(auction.title)
    // The current bid and when the auction ends, in Japan time.
    await expect(card).toContainText(formatMoney(15_000, 'JPY', language))
    await expect(card).toContainText(language === 'es' ? 'hora de Japón' : 'Japan time')
    const price = simulator.getByLabel(t.calculator.quote.price, { exact: true })
    await expect(price).toHaveValue('15000')
    await page.screenshot({
      path: `test-results/link-preview-calculator-${language}-800.png`,
      fullPage: true,
    })
    await price.fill('9000')
    await simulator.getByLabel(t.calculator.quote.link, { exact: true }).fill(`${auction.url}?again=1`)
    await expect(price).toHaveValue('9000')
    await axeAtBothWidths(page, `link-preview-calculator-${language}`)
  })
}

test('a link of every covered shop shows its item on the request form (en, 1280 px)', async ({
  page,
  signInAs,
}) => {
  test.slow()
  const t = LOCALES.en
  await signInAs({ email: uniqueEmail('preview-shops'), language: 'en' })
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto('/user-dashboard?lang=en&currency=JPY')
  await waitForHydration(page)
  const first = page.getByRole('group', { name: 'Item 1' })
  const card = first.getByRole('figure', { name: t.linkPreview.label })
  for (const sample of SHOP_SAMPLES) {
    await first.getByLabel(t.requests.url, { exact: true }).fill(sample.url)
    await expect(card, sample.shop).toContainText(sample.title)
    await expect(first.getByLabel(t.requests.estimate.price, { exact: true }), sample.shop).toHaveValue(
      String(sample.priceYen),
    )
  }
})
