import type { Page } from '@playwright/test'
import { expect, test, waitForHydration } from './fixtures.ts'

// Issue 30: the quote simulator's destination country gives the import estimate of its rule in
// effect (seeded: core/seed/data/import-rules.ts) and offers only the methods the country can use.

const TEXT = {
  es: {
    panel: 'Simulador de cotización',
    country: 'País de destino',
    price: 'Precio por artículo en yenes',
    count: 'Número de artículos',
    economic: 'Económico (pequeño paquete)',
    express: 'Exprés (EMS)',
    chileVat: /IVA \(19\s?%\)/,
    spainVat: /IVA \(21\s?%\)/,
    source: 'Fuente 1',
    since: 'Regla vigente desde el 25 de octubre de 2025.',
    usaUnavailable: 'Económico (pequeño paquete) no está disponible para este país.',
    usaReason: 'Japan Post no acepta mercancía para Estados Unidos desde el 27 de agosto de 2025',
    noRule: 'Todavía no tenemos un estimado de impuestos de importación para este país.',
    doorTotal: 'Total con impuestos al recibir',
  },
  en: {
    panel: 'Quote simulator',
    country: 'Destination country',
    price: 'Price per item in yen',
    count: 'Number of items',
    economic: 'Economy (small packet)',
    express: 'Express (EMS)',
    chileVat: /IVA \(19\s?%\)/,
    spainVat: /IVA \(21\s?%\)/,
    source: 'Source 1',
    since: 'Rule in effect since October 25, 2025.',
    usaUnavailable: 'Economy (small packet) is not available for this country.',
    usaReason: 'Japan Post has not accepted goods for the USA since 27 August 2025',
    noRule: 'We do not have an import tax estimate for this country yet.',
    doorTotal: 'Total with taxes on arrival',
  },
} as const

async function open(page: Page, language: 'es' | 'en', query = '') {
  await page.goto(`/calculator?lang=${language}${query}`)
  await waitForHydration(page)
}

for (const language of ['es', 'en'] as const) {
  const text = TEXT[language]

  test(`the chosen country gives its import estimate and its methods, as the visitor types (${language})`, async ({
    page,
  }) => {
    await open(page, language)
    const panel = page.getByRole('region', { name: text.panel })
    const estimate = panel.getByTestId('import-estimate')
    const country = panel.getByLabel(text.country)

    await country.selectOption('CL')
    await panel.getByLabel(text.price).fill('3000')
    await panel.getByLabel(text.count).fill('2')
    await expect(estimate).toContainText(text.chileVat)
    await expect(estimate).toContainText(text.since)
    await expect(estimate.getByRole('link', { name: text.source })).toHaveAttribute(
      'href',
      /^https:\/\/www\.meganoticias\.cl\//,
    )
    await expect(estimate).toContainText(text.doorTotal)
    await expect(panel.getByLabel(text.economic)).toBeChecked()

    // The USA: Japan Post takes no goods, so only Express is offered, and the reason is said.
    await country.selectOption('US')
    await expect(panel.getByLabel(text.economic)).toHaveCount(0)
    await expect(panel.getByLabel(text.express)).toBeChecked()
    await expect(panel.getByText(text.usaUnavailable)).toBeVisible()
    await expect(panel.getByText(text.usaReason)).toBeVisible()
    await expect(estimate).toBeVisible()

    // Spain: the visitor's economy again, and VAT at 21 % on the goods and the shipping.
    await country.selectOption('ES')
    await expect(panel.getByLabel(text.economic)).toBeChecked()
    await expect(panel.getByText(text.usaUnavailable)).toHaveCount(0)
    await expect(estimate).toContainText(text.spainVat)

    // A country without rules says so plainly.
    await country.selectOption('CA')
    await expect(estimate).toContainText(text.noRule)
  })
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the server answers the same: the USA quoted by Express with the reason, and the estimate', async ({
    page,
  }) => {
    await page.goto('/calculator?lang=en')
    const panel = page.getByRole('region', { name: 'Quote simulator' })
    await panel.getByLabel('Destination country').selectOption('US')
    await panel.getByLabel('Price per item in yen').fill('3000')
    await page.getByRole('button', { name: 'Calculate' }).click()
    await expect(page).toHaveURL(/country=US/)
    await expect(panel.getByLabel('Economy (small packet)')).toHaveCount(0)
    await expect(panel.getByLabel('Express (EMS)')).toBeChecked()
    await expect(panel.getByText(TEXT.en.usaReason)).toBeVisible()
    // The rule in effect since 25 July 2026: no surcharge, the item's own duty said, not guessed.
    await expect(panel.getByTestId('import-estimate')).toContainText('Each item’s own duty')

    await panel.getByLabel('Destination country').selectOption('CL')
    await page.getByRole('button', { name: 'Calculate' }).click()
    await expect(page).toHaveURL(/country=CL/)
    await expect(panel.getByTestId('import-estimate')).toContainText(TEXT.en.chileVat)
  })
})
