import sharp from 'sharp'
import { formatMoney } from '#core/money/money.ts'
import { axeAtBothWidths, expect, test, uniqueEmail, waitForHydration } from './fixtures.ts'

// The request form's photo and estimate, in both languages: typing the price seen in the shop
// shows an estimate (the calculator's pricing, default settings: ¥500 fee per item, 10 % tax)
// that follows the quantity; a photo attached with the file picker comes back as a thumbnail on
// the customer's request page and on the staff's. Without JavaScript, a photo still goes, a bad
// one comes back with its message, and there is no estimate field. Axe at 1280 and 375 pixels.

const WORDS = {
  en: {
    item: (n: number) => `Item ${n}`,
    url: 'Link to the item',
    quantity: 'Quantity',
    photo: 'Photo of the item (optional)',
    price: 'Price you see in the shop, in yen (optional)',
    total: 'Estimated total:',
    finalPrice: 'the final price comes in our quote',
    send: 'Send request',
    sent: /Request PR-\d{6} sent/,
    alt: 'Photo of item 1',
    staffAlt: "Customer's photo of item 1",
    wrongType: 'That file is not a photo we accept. Use a JPEG, PNG, WebP, GIF or AVIF image.',
    again: 'If you had chosen a photo, choose it again',
    currency: 'USD' as const,
  },
  es: {
    item: (n: number) => `Producto ${n}`,
    url: 'Enlace al producto',
    quantity: 'Cantidad',
    photo: 'Foto del producto (opcional)',
    price: 'Precio que ves en la tienda, en yenes (opcional)',
    total: 'Total estimado:',
    finalPrice: 'el precio final llega en nuestra cotización',
    send: 'Enviar solicitud',
    sent: /Solicitud PR-\d{6} enviada/,
    alt: 'Foto del producto 1',
    staffAlt: 'Foto del cliente del producto 1',
    wrongType: 'Ese archivo no es una foto que aceptemos. Usa una imagen JPEG, PNG, WebP, GIF o AVIF.',
    again: 'Si habías elegido una foto, vuelve a elegirla',
    currency: 'MXN' as const,
  },
} as const

/** A 900×600 JPEG, as a phone or a screenshot tool would save it. */
async function productPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 600, channels: 3, background: '#c0392b' } })
    .composite([
      {
        input: await sharp({ create: { width: 300, height: 300, channels: 3, background: '#f1c40f' } })
          .png()
          .toBuffer(),
        left: 300,
        top: 150,
      },
    ])
    .jpeg({ quality: 85 })
    .toBuffer()
}

for (const language of ['es', 'en'] as const) {
  test(`the estimate follows the price and quantity; a photo goes with the request and shows on both request pages (${language})`, async ({
    page,
    signInAs,
  }) => {
    test.slow()
    const words = WORDS[language]
    await signInAs({ email: uniqueEmail(`photos-${language}`), language })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/user-dashboard?lang=${language}&currency=${words.currency}`)
    await waitForHydration(page)

    const first = page.getByRole('group', { name: words.item(1) })
    await first.getByLabel(words.url, { exact: true }).fill('https://jp.mercari.com/item/m777')
    // The estimate: 2 × ¥2,500 + 2 × ¥500 fee + 10 % tax = ¥6,600.
    await first.getByLabel(words.price, { exact: true }).pressSequentially('2500')
    const live = first.locator('p[aria-live="polite"]')
    await expect(live).toContainText(words.total)
    await expect(live).toContainText(formatMoney(3300, 'JPY', language))
    await first.getByLabel(words.quantity, { exact: true }).fill('2')
    await expect(live).toContainText(formatMoney(6600, 'JPY', language))
    await expect(live).toContainText(
      formatMoney(6600 * (words.currency === 'USD' ? 0.0068 : 0.13), words.currency, language),
    )
    await expect(first.getByText(words.finalPrice)).toBeVisible()

    // A file that is not a photo comes back refused by the server, on its field.
    const photoInput = first.getByLabel(words.photo, { exact: true })
    await photoInput.setInputFiles({
      name: 'producto.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('<!doctype html><script>alert(1)</script>'),
    })
    await page.getByRole('button', { name: words.send }).click()
    await expect(first.getByText(words.wrongType)).toBeVisible()
    await expect(photoInput).toHaveAttribute('aria-invalid', 'true')
    // With JavaScript the page is not reloaded: the chosen file and the estimate stay.
    expect(await photoInput.evaluate((input: HTMLInputElement) => input.files?.length)).toBe(1)
    await expect(live).toContainText(formatMoney(6600, 'JPY', language))

    await photoInput.setInputFiles({
      name: 'producto.jpg',
      mimeType: 'image/jpeg',
      buffer: await productPhoto(),
    })
    await expect(first.getByText(words.wrongType)).toHaveCount(0)
    await axeAtBothWidths(page, `form-${language}`)
    await page.getByRole('button', { name: words.send }).click()

    await expect(page.getByRole('status').filter({ hasText: words.sent })).toBeVisible()
    const thumbnail = page.getByRole('img', { name: words.alt })
    await expect(thumbnail).toBeVisible()
    // Loaded (not a broken image), re-encoded and fitted: 900×600 shown at most 160 wide.
    await expect
      .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(900)
    expect(await thumbnail.getAttribute('width')).toBe('160')
    expect(await thumbnail.getAttribute('height')).toBe('107')
    expect(await thumbnail.getAttribute('loading')).toBe('lazy')
    await axeAtBothWidths(page, `request-${language}`)
    const requestPath = new URL(page.url()).pathname

    // Staff see it on their request page, from their own area's address.
    await signInAs({ email: uniqueEmail(`photos-admin-${language}`), role: 'admin', language })
    await page.goto(`/admin-dashboard${requestPath.replace('/user-dashboard', '')}?lang=${language}`)
    await waitForHydration(page)
    const staffThumbnail = page.getByRole('img', { name: words.staffAlt })
    await expect(staffThumbnail).toHaveAttribute(
      'src',
      /^\/admin-dashboard\/requests\/[0-9a-f-]+\/photos\/[0-9a-f-]+$/,
    )
    await expect
      .poll(() => staffThumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(900)
    await axeAtBothWidths(page, `admin-request-${language}`)
  })
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a photo goes with the form; a file that is not a photo comes back with its message; no estimate field', async ({
    page,
    signInAs,
  }) => {
    const words = WORDS.en
    await signInAs({ email: uniqueEmail('photos-nojs'), language: 'en' })
    await page.goto('/user-dashboard?lang=en')
    const first = page.getByRole('group', { name: words.item(1) })
    await expect(first.getByLabel(words.price)).toHaveCount(0)

    await first.getByLabel(words.url, { exact: true }).fill('https://jp.mercari.com/item/m1')
    await first.getByLabel(words.photo, { exact: true }).setInputFiles({
      name: 'photo.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('<!doctype html><script>alert(1)</script>'),
    })
    await page.getByRole('button', { name: words.send }).click()
    await expect(first.getByText(words.wrongType)).toBeVisible()
    await expect(first.getByText(words.again)).toBeVisible()
    await expect(first.getByLabel(words.url, { exact: true })).toHaveValue('https://jp.mercari.com/item/m1')
    await page.screenshot({ path: test.info().outputPath('no-js-refused.png'), fullPage: true })

    await first.getByLabel(words.photo, { exact: true }).setInputFiles({
      name: 'photo.jpg',
      mimeType: 'image/jpeg',
      buffer: await productPhoto(),
    })
    await page.getByRole('button', { name: words.send }).click()
    await expect(page.getByRole('status').filter({ hasText: words.sent })).toBeVisible()
    await expect
      .poll(() =>
        page.getByRole('img', { name: words.alt }).evaluate((image: HTMLImageElement) => image.naturalWidth),
      )
      .toBe(900)
  })
})
