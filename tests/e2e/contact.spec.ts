import { expect, test, waitForHydration } from './fixtures.ts'

const TEXT = {
  es: {
    name: 'Nombre',
    email: 'Correo electrónico',
    subject: 'Asunto',
    message: 'Mensaje',
    send: 'Enviar mensaje',
    sent: 'Mensaje enviado',
    another: 'Enviar otro mensaje',
    required: 'Este campo es obligatorio.',
    invalidEmail: 'Ingresa un correo electrónico válido, como nombre@ejemplo.com.',
    general: 'Consulta general',
  },
  en: {
    name: 'Name',
    email: 'E-mail',
    subject: 'Subject',
    message: 'Message',
    send: 'Send message',
    sent: 'Message sent',
    another: 'Send another message',
    required: 'This field is required.',
    invalidEmail: 'Enter a valid e-mail address, like name@example.com.',
    general: 'General Inquiry',
  },
} as const

for (const language of ['es', 'en'] as const) {
  const text = TEXT[language]

  // Name, e-mail and message are enough (the spec): the subject starts as a general inquiry,
  // and a short message is a message. (The contact form allows 5 posts per address per quarter
  // hour, which this file shares.)
  test(`sending a message shows the confirmation (${language})`, async ({ page }) => {
    await page.goto(`/contact?lang=${language}`)
    await waitForHydration(page)
    await expect(page.getByLabel(text.subject, { exact: true }).locator('option:checked')).toHaveText(
      text.general,
    )
    await page.getByLabel(text.name, { exact: true }).fill('María López')
    await page.getByLabel(text.email, { exact: true }).fill('maria@example.com')
    await page.getByLabel(text.message, { exact: true }).fill('Hola')
    await page.getByRole('button', { name: text.send }).click()
    await expect(page.getByRole('status')).toContainText(text.sent)
    await expect(page).toHaveURL(/sent=1/)
    // The focus moves to the confirmation, not back to the page body.
    await expect(page.getByRole('status')).toBeFocused()
    await page.getByRole('link', { name: text.another }).click()
    await expect(page.getByLabel(text.name, { exact: true })).toBeVisible()
  })

  test(`every validation error is shown in the page language (${language})`, async ({ page }) => {
    await page.goto(`/contact?lang=${language}`)
    await waitForHydration(page)
    await page.getByRole('button', { name: text.send }).click()
    for (const label of [text.name, text.email, text.message]) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('aria-invalid', 'true')
    }
    await expect(page.getByText(text.required)).toHaveCount(3)
    await expect(page.getByLabel(text.subject, { exact: true })).not.toHaveAttribute('aria-invalid', 'true')

    await page.getByLabel(text.email, { exact: true }).fill('not-an-email')
    await page.getByLabel(text.message, { exact: true }).fill('Hola')
    await page.getByRole('button', { name: text.send }).click()
    await expect(page.getByText(text.invalidEmail)).toBeVisible()
    await expect(page).not.toHaveURL(/sent=1/)
  })
}

for (const [language, demo, opens] of [
  ['es', 'Datos de demostración', '(se abre en una pestaña nueva)'],
  ['en', 'Demo data', '(opens in a new tab)'],
] as const) {
  test(`the contact cards: WhatsApp first, readable link text, placeholders labelled as demo data (${language})`, async ({
    page,
  }) => {
    await page.goto(`/contact?lang=${language}`)
    const channels = page.getByRole('region', {
      name: language === 'es' ? 'Otras formas de contactarnos' : 'Other ways to reach us',
    })
    const cards = channels.getByRole('listitem')
    await expect(cards).toHaveCount(4)
    for (const [index, name, href] of [
      [0, 'WhatsApp', 'https://wa.me/'],
      [1, 'Instagram', 'https://www.instagram.com/'],
      [2, 'Facebook', 'https://www.facebook.com/'],
    ] as const) {
      const card = cards.nth(index)
      await expect(card.getByRole('heading', { level: 3 })).toHaveText(name)
      // The seed's placeholder addresses name nobody: the network's name, never the raw URL.
      await expect(card.getByRole('link', { name: `${name} ${opens}` })).toHaveAttribute('href', href)
      await expect(card.getByText(demo)).toBeVisible()
    }
    await expect(channels).not.toContainText('https://')
    await expect(cards.nth(3).getByRole('link')).toHaveAttribute('href', /^mailto:/)
    await expect(cards.nth(3).getByText(demo)).toBeVisible()
  })
}

test('a ticked bot-check is answered like a success', async ({ page }) => {
  await page.goto('/contact?lang=en')
  await waitForHydration(page)
  await page.getByLabel('Name', { exact: true }).fill('Bot')
  await page.getByLabel('E-mail', { exact: true }).fill('bot@example.com')
  await page.getByLabel('Subject', { exact: true }).selectOption('other')
  await page.getByLabel('Message', { exact: true }).fill('Buy cheap followers now!!!')
  await page.locator('input[name="botcheck"]').evaluate((box: HTMLInputElement) => {
    box.checked = true
  })
  await page.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByRole('status')).toContainText('Message sent')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the form validates on the server and sends', async ({ page }) => {
    await page.goto('/contact?lang=es')
    await page.getByRole('button', { name: 'Enviar mensaje' }).click()
    await expect(page.getByText('Este campo es obligatorio.').first()).toBeVisible()
    await page.getByLabel('Nombre', { exact: true }).fill('Jorge')
    await page.getByLabel('Correo electrónico', { exact: true }).fill('jorge@example.com')
    await page.getByLabel('Asunto', { exact: true }).selectOption('order')
    await page.getByLabel('Mensaje', { exact: true }).fill('Quiero saber el estado de mi pedido.')
    await page.getByRole('button', { name: 'Enviar mensaje' }).click()
    await expect(page.getByRole('status')).toContainText('Mensaje enviado')
  })
})
