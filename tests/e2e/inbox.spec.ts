import { expect, test, waitForHydration } from './fixtures.ts'

// The staff contact inbox: a visitor's message reaches /admin-dashboard/messages, where an admin
// reads it, replies by e-mail and marks it handled (then reopens it), in both languages.

const TEXT = {
  es: {
    name: 'Nombre',
    email: 'Correo electrónico',
    message: 'Mensaje',
    send: 'Enviar mensaje',
    sent: 'Mensaje enviado',
    inbox: 'Mensajes de contacto',
    tab: 'Mensajes',
    nav: 'Área de administración',
    read: (name: string) => `Leer el mensaje de ${name}`,
    title: (name: string) => `Mensaje de ${name}`,
    reply: 'Responder por correo',
    replySubject: 'Re: tu mensaje a ',
    markHandled: 'Marcar como atendido',
    reopen: 'Reabrir',
    handledBy: 'por Ana Pérez',
    open: 'Abierto: todavía sin atender.',
    back: 'Todos los mensajes',
    handledFilter: 'Atendidos',
    forwarding: 'No se reenvió',
    japanTime: '(hora de Japón)',
  },
  en: {
    name: 'Name',
    email: 'E-mail',
    message: 'Message',
    send: 'Send message',
    sent: 'Message sent',
    inbox: 'Contact messages',
    tab: 'Messages',
    nav: 'Admin area',
    read: (name: string) => `Read the message from ${name}`,
    title: (name: string) => `Message from ${name}`,
    reply: 'Reply by e-mail',
    replySubject: 'Re: your message to ',
    markHandled: 'Mark handled',
    reopen: 'Reopen',
    handledBy: 'by Ana Pérez',
    open: 'Open: not handled yet.',
    back: 'All messages',
    handledFilter: 'Handled',
    forwarding: 'Not forwarded',
    japanTime: '(Japan time)',
  },
} as const

for (const language of ['es', 'en'] as const) {
  const text = TEXT[language]

  test(`a visitor's message reaches the admin's inbox: read as text, reply link, mark handled and reopen (${language})`, async ({
    page,
    signInAs,
  }) => {
    const name = `Visitante ${language} ${Date.now()}`
    const email = `visitor.${Date.now()}@example.com`
    const message = `<b>not bold</b>\nQuiero comprar algo en Mercari (${language}).`
    await page.goto(`/contact?lang=${language}`)
    await waitForHydration(page)
    await page.getByLabel(text.name, { exact: true }).fill(name)
    await page.getByLabel(text.email, { exact: true }).fill(email)
    await page.getByLabel(text.message, { exact: true }).fill(message)
    await page.getByRole('button', { name: text.send }).click()
    await expect(page.getByRole('status')).toContainText(text.sent)

    await signInAs({ role: 'admin', language })
    await page.goto(`/admin-dashboard?lang=${language}`)
    await waitForHydration(page)
    // From the work for today, by the admin area's Messages tab.
    await page
      .getByRole('navigation', { name: text.nav })
      .getByRole('link', { name: text.tab, exact: true })
      .click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.inbox)
    await page.getByRole('link', { name: text.read(name) }).click()

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.title(name))
    // As text: the markup the visitor typed is shown, not applied.
    await expect(page.getByText('<b>not bold</b>')).toBeVisible()
    await expect(page.locator('main b')).toHaveCount(0)
    await expect(page.getByText(email, { exact: true })).toBeVisible()
    await expect(page.getByText(text.forwarding)).toBeVisible()
    await expect(page.getByText(text.japanTime).first()).toBeVisible()
    const reply = page.getByRole('link', { name: text.reply })
    const href = (await reply.getAttribute('href')) ?? ''
    expect(href.startsWith(`mailto:${email}?subject=`)).toBe(true)
    // The visitor wrote in `language` (the form's page), so the reply's subject is in it too.
    expect(decodeURIComponent(href.split('?subject=')[1] ?? '')).toContain(text.replySubject)

    await expect(page.getByTestId('message-status')).toHaveText(text.open)
    await page.getByRole('button', { name: text.markHandled }).click()
    await expect(page.getByTestId('message-status')).toContainText(text.handledBy)
    await expect(page.getByRole('button', { name: text.reopen })).toBeVisible()

    // Gone from the open messages, listed under the handled ones.
    await page.getByRole('link', { name: text.back }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.inbox)
    await expect(page.getByRole('link', { name: text.read(name) })).toHaveCount(0)
    await page.getByRole('link', { name: text.handledFilter, exact: true }).click()
    await expect(page.getByRole('link', { name: text.handledFilter, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    )
    await page.getByRole('link', { name: text.read(name) }).click()
    await page.getByRole('button', { name: text.reopen }).click()
    await expect(page.getByTestId('message-status')).toHaveText(text.open)
  })
}

test('customers and moderators get the admin guard on the inbox; anonymous visitors the sign-in guard', async ({
  page,
  signInAs,
}) => {
  const anonymous = await page.goto('/admin-dashboard/messages?lang=en')
  expect(anonymous?.status()).toBe(401)
  await signInAs({ role: 'moderator' })
  const moderator = await page.goto('/admin-dashboard/messages?lang=en')
  expect(moderator?.status()).toBe(403)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Access Required')
})
