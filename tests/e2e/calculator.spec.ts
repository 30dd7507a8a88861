import type { Page } from '@playwright/test'
import { expect, test, waitForHydration } from './fixtures.ts'

const TEXT = {
  es: {
    price: 'Precio del artículo en yenes (por artículo)',
    prompt: 'Ingresa un precio en yenes para ver tu cotización.',
    total: 'Total',
    weight: 'Peso en gramos',
    express: 'Exprés (EMS)',
    economic: 'Económico (pequeño paquete)',
    region: 'Región de destino',
    negative: 'El precio no puede ser negativo.',
    notNumber: 'Ingresa el precio como un número de yenes, por ejemplo 2500.',
    notWhole: 'El yen no tiene decimales: ingresa un número entero.',
    separators: 'No pudimos saber dónde van los miles: escribe 2500, 2.500 o 2,500.',
    tooLarge: /Eso es más de 10\.000\.000\sJPY/,
    outOfRange: 'Para este método, ingresa un peso de 500 g a 10000 g.',
    offStep: 'Los pesos van en pasos de 50 g.',
  },
  en: {
    price: 'Item price in yen (per item)',
    prompt: 'Enter a price in yen to see your quote.',
    total: 'Total',
    weight: 'Weight in grams',
    express: 'Express (EMS)',
    economic: 'Economy (small packet)',
    region: 'Destination region',
    negative: 'The price cannot be negative.',
    notNumber: 'Enter the price as a number of yen, e.g. 2500.',
    notWhole: 'Yen have no decimals: enter a whole number.',
    separators: 'We could not tell where the thousands are: write 2500, 2,500 or 2.500.',
    tooLarge: /That is more than JPY\s10,000,000/,
    outOfRange: 'For this method, enter a weight from 500 g to 10000 g.',
    offStep: 'Weights go in steps of 50 g.',
  },
} as const

async function open(page: Page, language: 'es' | 'en', query = '') {
  await page.goto(`/calculator?lang=${language}${query}`)
  await waitForHydration(page)
}

for (const language of ['es', 'en'] as const) {
  const text = TEXT[language]

  test(`purchase calculator: empty and zero show the prompt, a price shows the quote (${language})`, async ({
    page,
  }) => {
    await open(page, language)
    const panel = page.getByRole('region', {
      name: language === 'es' ? 'Calculadora de precios en yenes' : 'Yen price calculator',
    })
    await expect(panel.getByText(text.prompt)).toBeVisible()
    await panel.getByLabel(text.price).fill('0')
    await expect(panel.getByText(text.prompt)).toBeVisible()
    await expect(panel.getByRole('definition')).toHaveCount(0)

    await panel.getByLabel(text.price).fill('1000')
    await expect(panel.getByText(text.prompt)).toBeHidden()
    const total = panel.locator('dl > div', {
      has: page.locator('dt', { hasText: new RegExp(`^${text.total}$`) }),
    })
    await expect(total.locator('dd')).toContainText(language === 'es' ? '1.650\u00a0JPY' : 'JPY\u00a01,650')
    // Each currency as its payers write it, whatever the page language (ADR 013).
    await expect(panel).toContainText('USD\u00a011.22')
    await expect(panel).toContainText('MXN\u00a0214.50')
    await expect(panel).toContainText('CLP\u00a010.791,00')
  })

  test(`bad prices get a clear message, never a number (${language})`, async ({ page }) => {
    await open(page, language)
    const input = page.getByLabel(text.price)
    for (const [value, message] of [
      ['-5', text.negative],
      ['abc', text.notNumber],
      ['NaN', text.notNumber],
      ['12.5', text.notWhole],
      ['2,5', text.notWhole],
      ['1,2,3', text.separators],
      ['10000001', text.tooLarge],
    ] as const) {
      await input.fill(value)
      await expect(page.getByText(message)).toBeVisible()
      await expect(input).toHaveAttribute('aria-invalid', 'true')
    }
  })

  test(`prices are read as shops and people write them (${language})`, async ({ page }) => {
    await open(page, language)
    const panel = page.getByRole('region', {
      name: language === 'es' ? 'Calculadora de precios en yenes' : 'Yen price calculator',
    })
    const input = panel.getByLabel(text.price)
    const total = panel.locator('dl > div', {
      has: page.locator('dt', { hasText: new RegExp(`^${text.total}$`) }),
    })
    // 2500 + 500 fee + 10 % tax = 3300.
    for (const value of [
      '2500',
      '2.500',
      '2,500',
      '2 500',
      '¥2,500',
      '￥2,500',
      '2,500円',
      'JPY 2500',
      '２５００',
    ]) {
      await input.fill(value)
      await expect(input).not.toHaveAttribute('aria-invalid', 'true')
      await expect(total.locator('dd')).toContainText(language === 'es' ? '3.300\u00a0JPY' : 'JPY\u00a03,300')
      await input.fill('')
      await expect(total).toHaveCount(0)
    }
  })

  test(`shipping: choosing a method resets the weight; out-of-range and off-step weights are explained (${language})`, async ({
    page,
  }) => {
    await open(page, language)
    const panel = page.getByRole('region', {
      name: language === 'es' ? 'Calculadora de envío' : 'Shipping calculator',
    })
    const weight = panel.getByRole('textbox', { name: text.weight })
    await expect(weight).toHaveValue('500')
    await expect(panel).toContainText(language === 'es' ? '2.002\u00a0JPY' : 'JPY\u00a02,002')

    await weight.fill('800')
    await panel.getByLabel(text.express).check()
    await expect(weight).toHaveValue('1000')
    await panel.getByLabel(text.region).selectOption('usa')
    // EMS to the USA, 1 kg: (5300 + 500) × 1.1.
    await expect(panel).toContainText(language === 'es' ? '6.380\u00a0JPY' : 'JPY\u00a06,380')

    await weight.fill('12000')
    await expect(panel.getByText(text.outOfRange)).toBeVisible()
    await weight.fill('1025')
    await expect(panel.getByText(text.offStep)).toBeVisible()

    // Japan Post takes no goods for the USA (issue 30): the region offers express only.
    await expect(panel.getByLabel(text.economic)).toHaveCount(0)
    await panel.getByLabel(text.region).selectOption('asia')
    await panel.getByLabel(text.economic).check()
    await expect(weight).toHaveValue('500')
  })
}

test('the quote simulator: a direct country and a courier-via-USA country', async ({ page }) => {
  await open(page, 'en')
  const panel = page.getByRole('region', { name: 'Quote simulator' })
  await expect(panel.getByText('Enter the item price to see the estimate.')).toBeVisible()
  await panel.getByLabel('Destination country').selectOption('CL')
  await panel.getByLabel('Price per item in yen').fill('3000')
  await panel.getByLabel('Number of items').fill('2')
  // Chile, economic 500 g: small packet zone 5 (assumed) 1070 + 2×200 = 1470 → (1470 + 960) × 1.1 = 2673.
  await expect(panel).toContainText('JPY\u00a02,673')
  await expect(panel).toContainText('15–21 days (2–3 weeks)')
  // The estimate's own list (the import estimate below it has another).
  await expect(panel.locator('dl').first().locator('div').last()).toContainText('JPY\u00a010,373')
  await expect(panel.getByText(/courier from the USA/)).toBeHidden()

  await panel.getByLabel('Destination country').selectOption('CO')
  await panel.getByLabel('Express (EMS)').check()
  await expect(panel).toContainText('4–10 business days')
  await expect(
    panel.getByText('We ship to the USA; the courier from the USA to Colombia is quoted separately.'),
  ).toBeVisible()
})

test('the quote simulator in Spanish names countries in Spanish and says the route', async ({ page }) => {
  await open(page, 'es')
  const panel = page.getByRole('region', { name: 'Simulador de cotización' })
  await panel.getByLabel('País de destino').selectOption('PE')
  await expect(panel.getByLabel('País de destino').locator('option:checked')).toHaveText('Perú')
  await panel.getByLabel('Precio por artículo en yenes').fill('1000')
  await expect(panel).toContainText('Total estimado')
  await panel.getByLabel('País de destino').selectOption('BO')
  await expect(panel.getByText(/hasta Bolivia se cotiza aparte/)).toBeVisible()
})

test('the selected currency is shown next to every yen figure', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  await open(page, 'en', '&price=1000')
  const panel = page.getByRole('region', { name: 'Yen price calculator' })
  await expect(panel).not.toContainText('≈')
  await page.getByRole('banner').getByRole('combobox', { name: 'Currency' }).selectOption('USD')
  await expect(panel).toContainText('≈ USD\u00a011.22')
  await expect(page.getByRole('region', { name: 'Shipping calculator' })).toContainText('≈ USD')
})

test('typing recalculates in the browser, with no request to the server', async ({ page }) => {
  await open(page, 'en')
  await page.waitForLoadState('networkidle')
  // React Router may still discover routes for visible links (/__manifest); that is navigation
  // metadata, not a calculation.
  const requests: string[] = []
  page.on('request', (request) => {
    if (!new URL(request.url()).pathname.startsWith('/__manifest')) requests.push(request.url())
  })
  await page.getByLabel('Item price in yen (per item)').pressSequentially('123456')
  await page.getByRole('region', { name: 'Shipping calculator' }).getByLabel('Express (EMS)').check()
  await expect(page.getByRole('region', { name: 'Yen price calculator' })).toContainText('JPY\u00a0136,351')
  expect(requests).toEqual([])
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the form calculates on the server', async ({ page }) => {
    await page.goto('/calculator?lang=en')
    await page.getByLabel('Item price in yen (per item)').fill('1000')
    await page.getByRole('button', { name: 'Calculate' }).click()
    await expect(page).toHaveURL(/price=1000/)
    await expect(page.getByRole('region', { name: 'Yen price calculator' })).toContainText('JPY\u00a01,650')
    await expect(page.getByRole('region', { name: 'Shipping calculator' })).toContainText('JPY\u00a02,002')
  })
})

/**
 * The yen calculator's total, sampled in the page on every animation frame for 2.5 s from just
 * before the price changes from 1,000 to 2,000 (a total of JPY 1,650 to JPY 2,750): what a person
 * saw, whatever the test runner's own delays on a loaded machine.
 */
async function totalsSeenDuringChange(page: Page) {
  await open(page, 'en', '&price=1000')
  const total = page
    .getByRole('region', { name: 'Yen price calculator' })
    .locator('dl > div', { has: page.locator('dt', { hasText: /^Total$/ }) })
    .locator('dd span.tabular-nums')
    .first()
  await expect(total).toHaveText('JPY\u00a01,650')
  const sampling = total.evaluate(
    (element) =>
      new Promise<string[]>((resolve) => {
        const seen: string[] = []
        const start = performance.now()
        const tick = () => {
          seen.push(element.textContent ?? '')
          if (performance.now() - start < 2500) requestAnimationFrame(tick)
          else resolve(seen)
        }
        tick()
      }),
  )
  await page.getByLabel('Item price in yen (per item)').fill('2000')
  const seen = (await sampling).map((text) => Number(text.replace(/[^\d]/g, '')))
  await expect(total).toHaveText('JPY\u00a02,750')
  return seen
}

test('figures animate to a new value over about a second', async ({ page }) => {
  const seen = await totalsSeenDuringChange(page)
  // Figures between the old and the new total were shown on the way (how many depends on how
  // many frames a loaded machine paints; with reduced motion there are none).
  expect(seen.filter((value) => value > 1650 && value < 2750).length).toBeGreaterThan(0)
})

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' })

  test('figures change at once', async ({ page }) => {
    const seen = await totalsSeenDuringChange(page)
    expect(seen.filter((value) => value !== 1650 && value !== 2750)).toEqual([])
    expect(seen).toContain(2750)
  })
})
