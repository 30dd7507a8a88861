import { PASSWORD, uniqueEmail } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { emailCount, latestEmail } from './outbox.ts'

// The specification's toasts (section 8): a title and a description, in both languages, with
// JavaScript and without it (they are rendered by the server with the page).

const text = {
  es: {
    name: 'Nombre completo',
    email: 'Correo electrónico',
    password: 'Contraseña',
    confirm: 'Confirmar contraseña',
    submit: 'Crear cuenta',
    tooShort: ['Contraseña demasiado corta', 'La contraseña debe tener al menos 8 caracteres.'],
    mismatch: ['Las contraseñas no coinciden', 'Asegúrate de que las dos contraseñas sean iguales.'],
    mismatchField: 'Escribe la misma contraseña en los dos campos.',
    tooShortField: 'Contraseña demasiado corta: usa al menos 8 caracteres.',
    sent: ['Revisa tu correo', 'Te enviamos un enlace de verificación.'],
    sentTo: 'Enviamos el enlace a',
    resend: 'Enviar el enlace de nuevo',
  },
  en: {
    name: 'Full name',
    email: 'E-mail',
    password: 'Password',
    confirm: 'Confirm password',
    submit: 'Create account',
    tooShort: ['Password too short', 'Password must be at least 8 characters long.'],
    mismatch: ["Passwords don't match", 'Please make sure both passwords are the same.'],
    mismatchField: 'Enter the same password in both fields.',
    tooShortField: 'Password too short: use at least 8 characters.',
    sent: ['Check your email', "We've sent you a verification link."],
    sentTo: 'We sent the link to',
    resend: 'Send the link again',
  },
} as const

for (const [language, javaScript] of [
  ['es', true],
  ['en', false],
] as const) {
  test(`sign-up in ${language}${javaScript ? '' : ' without JavaScript'}: the password rules and "check your email" as toasts; the screen names the address and sends the link again`, async ({
    browser,
    extraHTTPHeaders,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: javaScript, extraHTTPHeaders, baseURL })
    const page = await context.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    const t = text[language]
    await page.goto(`/auth?mode=signup&lang=${language}`)
    if (javaScript) await waitForHydration(page)
    const email = uniqueEmail(`toast-${language}`)
    await page.getByLabel(t.name, { exact: true }).fill('Ana Pérez')
    await page.getByLabel(t.email, { exact: true }).fill(email)
    await page.getByLabel(t.password, { exact: true }).fill('short')
    await page.getByLabel(t.confirm, { exact: true }).fill('different')
    await page.getByRole('button', { name: t.submit }).click()
    const tooShort = page.getByRole('alert').filter({ hasText: t.tooShort[0] })
    await expect(tooShort).toContainText(t.tooShort[1])
    const mismatch = page.getByRole('alert').filter({ hasText: t.mismatch[0] })
    await expect(mismatch).toContainText(t.mismatch[1])
    // …and each field says it too.
    await expect(page.getByLabel(t.password, { exact: true })).toHaveAccessibleDescription(
      new RegExp(t.tooShortField),
    )
    await expect(page.getByLabel(t.confirm, { exact: true })).toHaveAccessibleDescription(
      new RegExp(t.mismatchField),
    )

    await page.getByLabel(t.password, { exact: true }).fill(PASSWORD)
    await page.getByLabel(t.confirm, { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: t.submit }).click()
    await expect(page.getByRole('status')).toContainText(`${t.sent[0]}${t.sent[1]}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.sent[0])
    await expect(page.getByRole('main')).toContainText(`${t.sentTo} ${email}.`)
    const first = await latestEmail(email)
    expect(await emailCount(email)).toBe(1)
    expect(first.link).toContain(encodeURIComponent('/auth?verified=true'))

    // Sending it again: the same toast, a new link that ends in the same place.
    await page.getByRole('button', { name: t.resend }).click()
    await expect(page.getByRole('status')).toContainText(`${t.sent[0]}${t.sent[1]}`)
    await expect(page.getByRole('main')).toContainText(`${t.sentTo} ${email}.`)
    await expect.poll(() => emailCount(email)).toBe(2)
    const second = await latestEmail(email)
    expect(second.link).toContain(encodeURIComponent('/auth?verified=true'))
    await page.goto(second.link)
    await expect(page).toHaveURL(/\/email-verification$/)
    await context.close()
  })
}

test('forgot and reset password in Spanish: both toasts with their descriptions', async ({
  page,
  signInAs,
}) => {
  const { email } = await signInAs({ language: 'es' })
  await page.goto('/forgot-password?lang=es')
  await waitForHydration(page)
  await page.getByLabel('Correo electrónico', { exact: true }).fill(email)
  await page.getByRole('button', { name: 'Enviar enlace' }).click()
  await expect(page.getByRole('status')).toContainText(
    'Revisa tu correoTe enviamos un enlace para restablecer tu contraseña.',
  )
  const mail = await latestEmail(email)
  await page.goto(mail.link)
  await waitForHydration(page)
  await page.getByLabel('Nueva contraseña', { exact: true }).fill('otra contraseña nueva')
  await page.getByLabel('Confirmar contraseña', { exact: true }).fill('otra contraseña distinta')
  await page.getByRole('button', { name: 'Actualizar contraseña' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Las contraseñas no coinciden' })).toContainText(
    'Asegúrate de que las dos contraseñas sean iguales.',
  )
  await page.getByLabel('Nueva contraseña', { exact: true }).fill('otra contraseña nueva')
  await page.getByLabel('Confirmar contraseña', { exact: true }).fill('otra contraseña nueva')
  await page.getByRole('button', { name: 'Actualizar contraseña' }).click()
  await expect(page.getByRole('status')).toContainText(
    '¡Contraseña actualizada!Tu contraseña se actualizó correctamente.',
  )
})
