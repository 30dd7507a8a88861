import { expect, test } from './fixtures.ts'

for (const [language, text] of [
  [
    'es',
    {
      overview: 'En tres pasos',
      cards: 'Lo que hacemos por ti',
      categories: 'Lo que compran nuestros clientes',
      pricing: 'Precios transparentes',
      storage: 'Almacenamiento gratuito durante 30 días',
    },
  ],
  [
    'en',
    {
      overview: 'In three steps',
      cards: 'What we do for you',
      categories: 'What our customers buy',
      pricing: 'Transparent pricing',
      storage: 'Free storage for 30 days',
    },
  ],
] as const) {
  test(`the services page: three steps, three services with three benefits, four categories of four (${language})`, async ({
    page,
  }) => {
    await page.goto(`/services?lang=${language}`)
    await expect(page.getByRole('region', { name: text.overview }).getByRole('listitem')).toHaveCount(3)
    const cards = page.getByRole('region', { name: text.cards }).locator(':scope > div > ul > li')
    await expect(cards).toHaveCount(3)
    for (const card of await cards.all()) await expect(card.getByRole('listitem')).toHaveCount(3)
    await expect(page.getByText(text.storage)).toBeVisible()
    const categories = page.getByRole('region', { name: text.categories }).locator(':scope > ul > li')
    await expect(categories).toHaveCount(4)
    for (const category of await categories.all()) await expect(category.getByRole('listitem')).toHaveCount(4)
    await expect(page.getByRole('region', { name: text.pricing })).toBeVisible()
  })
}
