import { expect, test, waitForHydration } from './fixtures.ts'

const GROUPS = {
  en: [
    ['General marketplace', 5],
    ['Anime and manga merchandise', 13],
    ['Fashion and accessories', 13],
    ['Household and decoration', 6],
    ['Beauty and cosmetics', 4],
    ['Figures and collectibles', 6],
  ],
  es: [
    ['Marketplace general', 5],
    ['Merchandising de anime y manga', 13],
    ['Moda y accesorios', 13],
    ['Hogar y decoración', 6],
    ['Belleza y cosmética', 4],
    ['Figuras y coleccionables', 6],
  ],
} as const

for (const language of ['es', 'en'] as const) {
  test(`"all" shows every category as its own group with its count (${language})`, async ({ page }) => {
    await page.goto(`/store-guide?lang=${language}`)
    for (const [name, count] of GROUPS[language]) {
      const group = page.getByRole('region', { name })
      await expect(group.getByRole('listitem')).toHaveCount(count)
      await expect(group).toContainText(language === 'es' ? `${count} tiendas` : `${count} stores`)
    }
  })
}

test('Amazon and Rakuten are in both the general marketplace and beauty', async ({ page }) => {
  await page.goto('/store-guide?lang=en')
  for (const name of ['General marketplace', 'Beauty and cosmetics']) {
    const group = page.getByRole('region', { name })
    await expect(group.getByRole('link', { name: /Amazon Japan/ })).toHaveAttribute(
      'href',
      'https://www.amazon.co.jp/',
    )
    await expect(group.getByRole('link', { name: /Rakuten Ichiba/ })).toHaveAttribute(
      'href',
      'https://www.rakuten.co.jp/',
    )
  }
})

test('store links open in a new tab without giving the shop a handle on our page', async ({ page }) => {
  await page.goto('/store-guide?lang=en&category=household_and_misc')
  const link = page.getByRole('link', { name: 'MUJI (opens in a new tab)' })
  await expect(link).toHaveAttribute('target', '_blank')
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer')
})

test('choosing a category filters the guide and puts it in the URL, which renders on the server', async ({
  page,
}) => {
  await page.goto('/store-guide?lang=es')
  await waitForHydration(page)
  await page.getByLabel('Categoría').selectOption('beauty_and_cosmetics')
  await expect(page).toHaveURL(/category=beauty_and_cosmetics/)
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText(['Belleza y cosmética'])
  await expect(page.getByRole('region', { name: 'Belleza y cosmética' }).getByRole('listitem')).toHaveCount(4)

  await page.getByLabel('Categoría').selectOption('all')
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveCount(6)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a shared filtered link renders filtered, and the Show button filters', async ({ page }) => {
    await page.goto('/store-guide?lang=en&category=figures_and_collectibles')
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText([
      'Figures and collectibles',
    ])
    await expect(page.getByLabel('Category')).toHaveValue('figures_and_collectibles')
    await page.getByLabel('Category').selectOption('official_anime_stores')
    await page.getByRole('button', { name: 'Show' }).click()
    await expect(
      page.getByRole('region', { name: 'Anime and manga merchandise' }).getByRole('listitem'),
    ).toHaveCount(13)
  })

  test('an unknown category shows every group', async ({ page }) => {
    await page.goto('/store-guide?lang=en&category=%3Cscript%3E')
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveCount(6)
  })
})
