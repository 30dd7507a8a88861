import { expect, test, waitForHydration } from './fixtures.ts'

test('the order button reveals Instagram, Facebook and WhatsApp, each in a new tab, from settings', async ({
  page,
}) => {
  await page.goto('/?lang=en')
  await waitForHydration(page)
  const hero = page.getByRole('main').locator('section').first()
  await expect(hero.getByRole('link', { name: /WhatsApp/ })).toBeHidden()
  await hero.getByText('Order now').click()
  for (const [name, href] of [
    ['Instagram', 'https://www.instagram.com/'],
    ['Facebook', 'https://www.facebook.com/'],
    ['WhatsApp', 'https://wa.me/'],
  ] as const) {
    const link = hero.getByRole('link', { name: `${name} (opens in a new tab)` })
    await expect(link).toHaveAttribute('href', href)
    await expect(link).toHaveAttribute('target', '_blank')
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer')
  }
  // The seeded links are placeholders, and say so.
  await expect(hero.getByText('Demo data')).toBeVisible()
  await expect(hero.getByRole('link', { name: 'Where to shop' })).toHaveAttribute('href', '/store-guide')
})

// The public texts describe the product as it is (ADR 038): the request form is the first way
// to order (sign-in first for a visitor), messaging the other; nothing that exists is "soon".
for (const [language, words] of [
  [
    'es',
    {
      order: 'Haz tu pedido',
      signIn: 'Inicia sesión y envía una solicitud en línea',
      form: 'Envía una solicitud en línea',
      faq: 'Preguntas frecuentes',
      howToOrder: '¿Cómo hago un pedido?',
      howToOrderAnswer: 'formulario de solicitud',
      payment: '¿Cómo puedo pagar?',
      paymentAnswer: 'Con transferencia bancaria.',
    },
  ],
  [
    'en',
    {
      order: 'Order now',
      signIn: 'Sign in and send a request online',
      form: 'Send a request online',
      faq: 'Frequently asked questions',
      howToOrder: 'How do I order?',
      howToOrderAnswer: 'request form',
      payment: 'How can I pay?',
      paymentAnswer: 'By bank transfer.',
    },
  ],
] as const) {
  test(`"Order now" offers the request form first, then messaging; the FAQ says how ordering and paying work (${language})`, async ({
    page,
    signInAs,
  }) => {
    await page.setViewportSize({ width: language === 'es' ? 375 : 1280, height: 900 })
    await page.goto(`/?lang=${language}`)
    await waitForHydration(page)
    const hero = page.getByRole('main').locator('section').first()
    await hero.getByText(words.order).click()
    const signIn = hero.getByRole('link', { name: words.signIn })
    await expect(signIn).toHaveAttribute('href', '/auth?redirectTo=%2Fuser-dashboard')
    await expect(hero.getByRole('link', { name: /WhatsApp/ })).toBeVisible()
    const faq = page.getByRole('region', { name: words.faq })
    await faq.locator('summary', { hasText: words.howToOrder }).click()
    await expect(faq.getByText(words.howToOrderAnswer)).toBeVisible()
    await faq.locator('summary', { hasText: words.payment }).click()
    // No provider is configured on the test server: a bank transfer is how customers pay.
    await expect(faq.getByText(words.paymentAnswer)).toBeVisible()
    await expect(page.getByRole('main')).not.toContainText(/soon|pronto|Wise/i)
    await signIn.click()
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fuser-dashboard/)

    // Signed in, the same button leads straight to the form.
    await signInAs({ language })
    await page.goto(`/?lang=${language}`)
    await hero.getByText(words.order).click()
    await expect(hero.getByRole('link', { name: words.form, exact: true })).toHaveAttribute(
      'href',
      '/user-dashboard',
    )
  })
}

for (const [language, text] of [
  [
    'es',
    {
      steps: 'Cómo funciona, en siete pasos',
      reasons: 'Por qué comprar con nosotros',
      extras: 'También incluido',
      faq: 'Preguntas frecuentes',
      storage: '¿Cuánto tiempo pueden guardar mis artículos?',
      storageAnswer: 'hasta 30 días',
      reviews: 'Lo que dicen nuestros clientes',
      rating: /4,7 de 5/,
    },
  ],
  [
    'en',
    {
      steps: 'How it works, in seven steps',
      reasons: 'Why shop with us',
      extras: 'Also included',
      faq: 'Frequently asked questions',
      storage: 'How long can you keep my items?',
      storageAnswer: 'up to 30 days',
      reviews: 'What our customers say',
      rating: /4\.7 out of 5/,
    },
  ],
] as const) {
  test(`the home sections, the FAQ accordion and the reviews (${language})`, async ({ page }) => {
    await page.goto(`/?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByRole('region', { name: text.steps }).getByRole('listitem')).toHaveCount(7)
    await expect(page.getByRole('region', { name: text.reasons }).getByRole('listitem')).toHaveCount(4)
    await expect(page.getByRole('region', { name: text.extras }).getByRole('listitem')).toHaveCount(3)

    const faq = page.getByRole('region', { name: text.faq })
    await expect(faq.locator('details')).toHaveCount(9)
    const question = faq.locator('summary', { hasText: text.storage })
    await question.focus()
    await page.keyboard.press('Enter')
    // The free-storage-days setting, the same in both languages.
    await expect(faq.getByText(text.storageAnswer)).toBeVisible()
    await page.keyboard.press('Enter')
    await expect(faq.getByText(text.storageAnswer)).toBeHidden()

    const reviews = page.getByRole('region', { name: text.reviews })
    await expect(reviews.getByRole('listitem')).toHaveCount(6)
    await expect(reviews.getByText(text.rating).first()).toBeVisible()
  })
}

test('structured data describes the organisation and the FAQ', async ({ page }) => {
  await page.goto('/?lang=en')
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents()
  const data = blocks.map((block) => JSON.parse(block))
  expect(data.map((item) => item['@type']).sort()).toEqual(['FAQPage', 'Organization'])
  expect(data.find((item) => item['@type'] === 'FAQPage').mainEntity).toHaveLength(9)
})

test('every public page has a title, a description, a canonical URL and hreflang alternates', async ({
  page,
}) => {
  for (const path of ['/', '/services', '/calculator', '/store-guide', '/contact']) {
    await page.goto(`${path}?lang=en`)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{20,}/)
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      new RegExp(`${path}\\?lang=en$`),
    )
    await expect(page.locator('link[rel="alternate"][hreflang="es"]')).toHaveAttribute('href', /lang=es$/)
    await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveCount(1)
    await expect(page.locator('meta[property="og:title"]')).toHaveCount(1)
  }
})

test('robots.txt and sitemap.xml are served', async ({ request }) => {
  const robots = await request.get('/robots.txt')
  expect(await robots.text()).toContain('Sitemap: ')
  const sitemap = await request.get('/sitemap.xml')
  expect(sitemap.headers()['content-type']).toContain('application/xml')
  // Seven pages in two languages: the prohibited items and the seller disclosure too (ADR 038).
  const text = await sitemap.text()
  expect(text.match(/<url>/g)).toHaveLength(14)
  expect(text).toContain('/prohibited-items?lang=es')
  expect(text).toContain('/seller-disclosure?lang=en')
})
